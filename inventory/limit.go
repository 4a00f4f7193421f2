package inventory

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/roceaudit/roceaudit/topology"
)

// selectDevices applies Ansible-style --limit patterns: a device is selected by its name or
// a group it belongs to; `*` and `?` are wildcards, `~` starts a regular expression (matched
// at the start of the name, as Ansible's re.match does) and `all` is every device; `!p`
// removes what p matches and `&p` keeps only what p matches too. A value may hold several
// patterns, split as Ansible splits them (`fabric:!spine`, see splitHostPattern). A pattern
// that matches nothing is an error: it is a typo.
func selectDevices(limit []string, names []string, groups map[string][]string) (map[string]bool, error) {
	var patterns []string
	for _, l := range limit {
		patterns = append(patterns, splitHostPattern(l)...)
	}
	if len(patterns) == 0 {
		return nil, fmt.Errorf("--limit %q: no pattern", strings.Join(limit, ","))
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
			match, err := limitMatcher(pat)
			if err != nil {
				return nil, fmt.Errorf("--limit %q: %w", raw, err)
			}
			hit := false
			for _, n := range names {
				m := slices.ContainsFunc(append([]string{n}, groups[n]...), match)
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

// limitMatcher is what one pattern (without its ! or &) matches a name or group with.
func limitMatcher(pat string) (func(string) bool, error) {
	if re, ok := strings.CutPrefix(pat, "~"); ok {
		rx, err := regexp.Compile(`^(?:` + re + `)`)
		if err != nil {
			return nil, fmt.Errorf("not a regular expression: %w", err)
		}
		return rx.MatchString, nil
	}
	if pat == "all" {
		return func(string) bool { return true }, nil
	}
	if _, err := path.Match(pat, ""); err != nil {
		return nil, err
	}
	return func(s string) bool {
		ok, _ := path.Match(pat, s)
		return ok
	}, nil
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
