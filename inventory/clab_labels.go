package inventory

import (
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// Node labels say what a topology file cannot: `roceaudit.platform` (a platform, or none to
// leave the node out) and how to log in, `roceaudit.<key>` for every connection key of the
// native inventory (roceaudit.user, roceaudit.port, roceaudit.identity_file, ...).
const clabLabelPrefix = "roceaudit."

// clabNodeLabels merges the labels of a node's layers, nearest first, as containerlab does.
func (p *importParser) clabNodeLabels(layers []fields) map[string]field {
	out := map[string]field{}
	for _, l := range layers {
		for _, f := range p.clabLabels(l).list {
			if _, set := out[f.key.Value]; !set {
				out[f.key.Value] = f
			}
		}
	}
	return out
}

// clabConn reads the roceaudit.<key> connection labels. Label values are strings to
// containerlab, so "2222" is a port and "true" a boolean here.
func (p *importParser) clabConn(labels map[string]field) connSettings {
	m := map[string]field{}
	for _, k := range sortedKeys(labels) {
		key, ok := strings.CutPrefix(k, clabLabelPrefix)
		if !ok || k == clabPlatformLabel {
			continue
		}
		f := labels[k]
		if !slices.Contains(connKeys, key) {
			p.warnf(f.key, "unknown label %s ignored (roceaudit reads %s and %s<key> for %s)%s", k, clabPlatformLabel, clabLabelPrefix, strings.Join(connKeys, ", "), didYouMean(key, connKeys))
			continue
		}
		val := f.val
		if v := deref(val); v != nil && v.Kind == yaml.ScalarNode && v.ShortTag() == "!!str" {
			c := *v
			switch {
			case iniInteger.MatchString(c.Value):
				c.Tag = "!!int"
			case c.Value == "true" || c.Value == "false":
				c.Tag = "!!bool"
			}
			val = &c
		}
		m[key] = field{key: f.key, val: val}
	}
	if len(m) == 0 {
		return connSettings{}
	}
	return p.conn(m)
}
