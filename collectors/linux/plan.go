package linux

import (
	"strings"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

// Plan lists what Collect may send to spec: discovery, then the per-port commands with {if}
// filled for each listed interface. {dev}/{port} (and {if} when no interface is listed) stay
// placeholders: they are only known after discovery. The dcb commands are sent only when
// mlnx_qos is missing or fails, pgrep only when systemctl cannot answer.
func (Platform) Plan(spec inventory.DeviceSpec) []string {
	var out []string
	seen := map[string]bool{}
	add := func(c string) {
		if spec.Conn.Sudo {
			c = collectors.SudoPrefix + c
		}
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	for _, c := range append(append([]string(nil), discoveryCommands...), fallbackCommands...) {
		add(c)
	}
	if len(spec.Interfaces) == 0 {
		for _, c := range portCommands {
			add(c)
		}
		return out
	}
	for _, ifname := range spec.Interfaces {
		if topology.ValidName(ifname) != nil {
			continue // never print, let alone send, an unsafe name
		}
		for _, c := range portCommands {
			add(strings.ReplaceAll(c, "{if}", ifname))
		}
	}
	return out
}
