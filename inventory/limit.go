package inventory

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/roceaudit/roceaudit/topology"
)

// selectDevices applies Ansible-style --limit patterns: a device is selected by its name or
// a group it belongs to; `*` and `?` are wildcards; `!p` removes what p matches and `&p`
// keeps only what p matches too. A pattern that matches nothing is an error: it is a typo.
func selectDevices(patterns []string, names []string, groups map[string][]string) (map[string]bool, error) {
	matches := func(pat, name string) bool {
		for _, g := range append([]string{name}, groups[name]...) {
			if ok, _ := path.Match(pat, g); ok {
				return true
			}
		}
		return false
	}
	keep := map[string]bool{}
	positive := false
	for _, pat := range patterns {
		if !strings.HasPrefix(pat, "!") && !strings.HasPrefix(pat, "&") {
			positive = true
		}
	}
	for _, n := range names {
		keep[n] = !positive
	}
	for _, pass := range []string{"", "&", "!"} {
		for _, raw := range patterns {
			pat, op := raw, ""
			if strings.HasPrefix(raw, "!") || strings.HasPrefix(raw, "&") {
				pat, op = raw[1:], raw[:1]
			}
			if op != pass {
				continue
			}
			if _, err := path.Match(pat, ""); err != nil {
				return nil, fmt.Errorf("--limit %q: %w", raw, err)
			}
			hit := false
			for _, n := range names {
				m := matches(pat, n)
				hit = hit || m
				switch op {
				case "":
					keep[n] = keep[n] || m
				case "&":
					keep[n] = keep[n] && m
				case "!":
					keep[n] = keep[n] && !m
				}
			}
			if !hit {
				return nil, fmt.Errorf("--limit %q matches no device or group", raw)
			}
		}
	}
	if !slices.ContainsFunc(names, func(n string) bool { return keep[n] }) {
		return nil, fmt.Errorf("--limit %s leaves no device", strings.Join(patterns, ","))
	}
	return keep, nil
}

// keepLinks drops the links with an end on a device that is not kept.
func keepLinks(links []topology.Link, keep map[string]bool) []topology.Link {
	var out []topology.Link
	for _, l := range links {
		if keep[l.A.Device] && keep[l.B.Device] {
			out = append(out, l)
		}
	}
	return out
}

// limitNative applies --limit to a roceaudit inventory: its groups are hosts, switches and
// the platform names.
func limitNative(inv *Inventory, patterns []string) error {
	if len(patterns) == 0 {
		return nil
	}
	var names []string
	groups := map[string][]string{}
	for _, d := range inv.Devices {
		names = append(names, d.Name)
		groups[d.Name] = []string{sectionOf(d.Role), d.Platform}
	}
	keep, err := selectDevices(patterns, names, groups)
	if err != nil {
		return fmt.Errorf("inventory %s: %w", inv.File, err)
	}
	inv.Devices = slices.DeleteFunc(inv.Devices, func(d DeviceSpec) bool { return !keep[d.Name] })
	inv.Links = keepLinks(inv.Links, keep)
	inv.Paths = slices.DeleteFunc(inv.Paths, func(p [2]string) bool {
		for _, e := range p {
			host, _, _ := strings.Cut(e, ":")
			if _, isDev := groups[host]; isDev && !keep[host] {
				return true
			}
		}
		return false
	})
	return nil
}
