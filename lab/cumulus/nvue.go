package cumulus

import (
	"strings"

	"github.com/roceaudit/roceaudit/lab/loginshell"
	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// NVUE's `nv show` takes a path in its object model (nvue-reference Show-Commands): exact words,
// an interface name where the model has one. The lab renders the paths that have a renderer;
// the other real paths listed here answer that the lab does not render them.
type node struct {
	name   string                                                     // ifName for an interface name
	global func(sw *switchstate.Switch) string                        // a switch-wide rendering
	port   func(p *switchstate.Port, roce bool) (string, string, int) // a per-port rendering
	sub    []*node
	// The `-o json` renderings, where the lab has one.
	globalJSON func(sw *switchstate.Switch) string
	portJSON   func(p *switchstate.Port, roce bool) string
}

// withJSON gives a switch-wide leaf its `-o json` rendering.
func (n *node) withJSON(f func(sw *switchstate.Switch) string) *node { n.globalJSON = f; return n }

// withPortJSON gives a per-port leaf its `-o json` rendering.
func (n *node) withPortJSON(f func(p *switchstate.Port, roce bool) string) *node {
	n.portJSON = f
	return n
}

// ifName is the element of a path that is an interface name.
const ifName = "<interface-id>"

func path(name string, sub ...*node) *node { return &node{name: name, sub: sub} }

// withSub gives a leaf that renders its own children (`link` and `link stats`).
func withSub(n *node, sub ...*node) *node { n.sub = sub; return n }

func globalLeaf(name string, f func(sw *switchstate.Switch) string) *node {
	return &node{name: name, global: f}
}

func portLeaf(name string, f func(p *switchstate.Port, roce bool) (string, string, int)) *node {
	return &node{name: name, port: f}
}

// plain is a per-port rendering that always succeeds.
func plain(f func(p *switchstate.Port, roce bool) string) func(p *switchstate.Port, roce bool) (string, string, int) {
	return func(p *switchstate.Port, roce bool) (string, string, int) { return f(p, roce), "", 0 }
}

// qosProfiles are the QoS objects NVUE has both switch-wide (with profiles) and per port.
var qosProfiles = []string{"mapping", "egress-queue-mapping", "egress-scheduler", "congestion-control", "pfc", "link-pause", "pfc-watchdog"}

// nvShow is the part of NVUE's show tree the lab knows.
var nvShow = path("show",
	globalLeaf("system", showSystem),
	path("interface",
		globalLeaf("lldp", showInterfaceLLDP).withJSON(showInterfaceLLDPJSON),
		path(ifName,
			withSub(portLeaf("link", plain(showLink)), portLeaf("stats", plain(showLinkStats)).withPortJSON(showLinkStatsJSON)),
			path("lldp", path("neighbor")),
			path("qos",
				path("roce", portLeaf("status", showRoCEStatus)),
				portLeaf("mapping", plain(showMapping)),
				portLeaf("egress-queue-mapping", plain(showEgressQueueMapping)),
				portLeaf("egress-scheduler", plain(showEgressScheduler)),
				portLeaf("congestion-control", plain(showCongestionControl)),
				portLeaf("pfc", plain(showPFC)),
				portLeaf("link-pause", plain(showLinkPause)),
				portLeaf("pfc-watchdog", plain(showPFCWatchdog)),
				path("buffer"),
			),
			path("counters", portLeaf("qos", plain(showCountersQoS)).withPortJSON(showCountersQoSJSON)),
			path("ip"),
		),
	),
	path("qos", append(profileNodes(), globalLeaf("roce", showQoSRoCE), path("buffer"))...),
	path("bridge"),
	path("router"),
	path("vrf"),
)

func profileNodes() []*node {
	out := make([]*node, len(qosProfiles))
	for i, n := range qosProfiles {
		out[i] = path(n)
	}
	return out
}

// child is the element word names under n ("" for an interface name).
func (n *node) child(word string) *node {
	var wildcard *node
	for _, c := range n.sub {
		switch c.name {
		case word:
			return c
		case ifName:
			wildcard = c
		}
	}
	return wildcard
}

// nvueInvalid is NVUE's answer to a path outside its model (the wording is not verified
// against a device).
func nvueInvalid(at string, word string) string {
	return "Error: Invalid command: '" + word + "' is not a valid element of '" + at + "'\n"
}

// nv answers `nv ARGS...`: `nv show PATH` from the state; `nv set`, `nv unset`, `nv config`
// and `nv action` change the switch, which the lab never does.
func (s *Switch) nv(argv []string) (stdout, stderr string, exit int) {
	if len(argv) < 2 {
		return loginshell.NotEmulated(argv) // nv's help
	}
	switch argv[1] {
	case "show":
	case "set", "unset", "config", "action", "list-commands", "help":
		return loginshell.NotEmulated(argv)
	default:
		return "", nvueInvalid("nv", argv[1]), 1
	}
	words, asJSON := outputJSON(argv[2:])
	n, at, port := nvShow, "nv show", ""
	for _, w := range words {
		if strings.HasPrefix(w, "-") {
			return loginshell.NotEmulated(argv) // --applied, --view, other outputs, ...
		}
		c := n.child(w)
		if c == nil {
			return "", nvueInvalid(at, w), 1
		}
		if c.name == ifName {
			port = w
		}
		n, at = c, at+" "+w
	}
	global, perPort := n.global, n.port
	if asJSON {
		global, perPort = n.globalJSON, nil
		if n.portJSON != nil {
			perPort = func(p *switchstate.Port, roce bool) (string, string, int) { return n.portJSON(p, roce), "", 0 }
		}
	}
	switch {
	case global != nil:
		s.State.Read(func(sw *switchstate.Switch) { stdout = global(sw) })
		return stdout, "", 0
	case perPort == nil:
		return loginshell.NotEmulated(argv)
	}
	s.State.Read(func(sw *switchstate.Switch) {
		roce, ports := s.whole.of(sw)
		p := ports[port]
		if p == nil {
			stdout, stderr, exit = "", ItemMissing, 1
			return
		}
		stdout, stderr, exit = perPort(p, roce)
	})
	return stdout, stderr, exit
}

// outputJSON takes NVUE's `-o json` / `--output json` out of a show path's words.
func outputJSON(words []string) ([]string, bool) {
	var out []string
	asJSON := false
	for i := 0; i < len(words); i++ {
		if (words[i] == "-o" || words[i] == "--output") && i+1 < len(words) && words[i+1] == "json" {
			asJSON = true
			i++
			continue
		}
		out = append(out, words[i])
	}
	return out, asJSON
}
