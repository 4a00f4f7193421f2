package inventory

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// The JSON of `ansible-inventory --list` (and of inventory scripts): one key per group with
// `hosts` and `children` as lists and `vars` as a mapping (or the group as a bare list of
// hosts), and `_meta.hostvars` holding each host's variables. It is parsed as YAML, which
// JSON is, so that errors keep their lines.
func (a *ansState) readJSON(data []byte) *yaml.Node {
	p := a.p
	root := p.document(data, "Ansible inventory", "ansible-inventory --list JSON")
	if root == nil {
		return nil
	}
	top, ok := p.entries(root, "the Ansible inventory JSON")
	if !ok {
		return nil
	}
	hostvars := map[string]fields{}
	if meta, ok := top.get("_meta"); ok && !isNull(meta.val) {
		mf, _ := p.entries(meta.val, "_meta")
		if hv, ok := mf.get("hostvars"); ok && !isNull(hv.val) {
			hosts, _ := p.entries(hv.val, "_meta.hostvars")
			for _, h := range hosts.list {
				if !isNull(h.val) {
					hostvars[h.key.Value], _ = p.entries(h.val, fmt.Sprintf("_meta.hostvars.%s", h.key.Value))
				}
			}
		}
	}
	names := func(n *yaml.Node, what string) []*yaml.Node {
		if isNull(n) {
			return nil
		}
		items, _ := p.list(n, what, "a list of names")
		return items
	}
	listed := map[string]bool{}
	addHost := func(g *ansGroup, n *yaml.Node) {
		listed[n.Value] = true
		var val *yaml.Node
		if hv, ok := hostvars[n.Value]; ok && len(hv.list) > 0 {
			val = &yaml.Node{Kind: yaml.MappingNode, Line: hv.list[0].key.Line}
			for _, f := range hv.list {
				val.Content = append(val.Content, f.key, f.val)
			}
		}
		a.parseHost(g, field{key: n, val: val})
	}
	for _, f := range top.list {
		if f.key.Value == "_meta" {
			continue
		}
		g := a.group(f.key.Value)
		what := fmt.Sprintf("group %q", g.name)
		if v := deref(f.val); v != nil && v.Kind == yaml.SequenceNode {
			for _, h := range names(v, what) {
				addHost(g, deref(h))
			}
			continue
		}
		if isNull(f.val) {
			continue
		}
		gf, ok := p.entries(f.val, what)
		if !ok {
			continue
		}
		for _, e := range gf.list {
			switch e.key.Value {
			case "hosts":
				for _, h := range names(e.val, what+" hosts") {
					addHost(g, deref(h))
				}
			case "children":
				for _, c := range names(e.val, what+" children") {
					a.addParent(a.group(deref(c).Value), g.name, c)
				}
			case "vars":
				if isNull(e.val) {
					continue
				}
				if vars, ok := p.entries(e.val, what+" vars"); ok {
					for _, v := range vars.list {
						g.vars[v.key.Value] = v
					}
				}
			default:
				p.errorf(e.key, "unknown key %q in %s (expected hosts, children or vars)", e.key.Value, what)
			}
		}
	}
	for _, h := range sortedKeys(hostvars) {
		if !listed[h] {
			for _, f := range hostvars[h].list {
				addHost(a.group("ungrouped"), &yaml.Node{Kind: yaml.ScalarNode, Value: h, Line: f.key.Line, Column: f.key.Column})
				break
			}
		}
	}
	a.underAll()
	return root
}
