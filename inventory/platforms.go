package inventory

import (
	"maps"
	"slices"
	"strings"

	"github.com/roceaudit/roceaudit/topology"
)

// Platforms is what reading an inventory needs to know of the platforms the program supports;
// the collectors' registry is one. A nil Platforms accepts any platform (linux is a host, the
// rest are switches) and knows no containerlab kind or Ansible network OS.
type Platforms interface {
	// Role is the role of a supported platform.
	Role(platform string) (topology.Role, bool)
	// ClabKinds maps containerlab node kinds to platforms.
	ClabKinds() map[string]ClabKind
	// AnsibleNetworkOS maps ansible_network_os values to platforms; a key ending in * is a
	// collection prefix.
	AnsibleNetworkOS() map[string]string
}

// ClabKind is how nodes of one containerlab kind are imported.
type ClabKind struct {
	Platform string
	// Port is the device's own name for the port containerlab wires as iface (eth1, ...), so
	// that declared links meet the names the switch reports; nil when they are the same.
	Port func(iface string) string
}

// clabKinds is the containerlab kind table of the parser's platforms (empty without a
// registry), read once per import.
func (p *importParser) clabKinds() map[string]ClabKind {
	if p.kinds == nil && p.platforms != nil {
		p.kinds = p.platforms.ClabKinds()
	}
	return p.kinds
}

// ansiblePlatform maps an ansible_network_os value to its platform: an exact value first,
// then the longest collection prefix. known lists the values, sorted, for an error.
func ansiblePlatform(ps Platforms, value string) (platform string, known []string, ok bool) {
	if ps == nil {
		return "", nil, false
	}
	table := ps.AnsibleNetworkOS()
	known = slices.Sorted(maps.Keys(table))
	if p, exact := table[value]; exact && !strings.HasSuffix(value, "*") {
		return p, known, true
	}
	best := ""
	for _, k := range known {
		if pre, isPrefix := strings.CutSuffix(k, "*"); isPrefix && strings.HasPrefix(value, pre) && len(k) > len(best) {
			best, platform = k, table[k]
		}
	}
	return platform, known, best != ""
}
