package linux

import (
	"strings"

	"github.com/roceaudit/roceaudit/topology"
)

// lldpcli's warnings when it cannot reach lldpd (src/ctl.c ctl_connect, then
// src/client/display.c): "[WARN/control] unable to connect to socket PATH: STRERROR" and
// "[WARN/lldpctl] not able to get the list of interfaces. Unable to connect to lldpd daemon".
// lldpcli still prints the empty document and exits 0.
const lldpdUnreachable = "unable to connect to socket"

// lldpNeighborsFact reads the neighbours lldpd has learned. A host without an LLDP agent
// (lldpcli not installed, or lldpd not running) has no neighbours to show: that is known
// and empty, with the reason as the excerpt, not an error. The fact is unknown only when
// the agent may run but cannot be read: a refused socket, a failed command, bad output.
func lldpNeighborsFact(r result) topology.Fact[[]topology.LLDPNeighbor] {
	src := topology.Evidence{Command: r.cmd}
	none := []topology.LLDPNeighbor{}
	stderr := strings.TrimSpace(r.out.Stderr)
	switch {
	case !r.ran():
		src.Error = r.failure()
		return topology.Unknown[[]topology.LLDPNeighbor](src)
	case r.commandMissing():
		src.Excerpt = "no LLDP agent: lldpcli is not installed (" + firstLines(stderr, 1) + ")"
		return topology.Known(none, src)
	case strings.Contains(stderr, lldpdUnreachable) && strings.Contains(stderr, "Permission denied"):
		src.Error = "lldpd runs but this user may not read its socket (" + lineWith(stderr, lldpdUnreachable) +
			"); set sudo: true for the host or add the user to lldpd's group (_lldpd)"
		return topology.Unknown[[]topology.LLDPNeighbor](src)
	case strings.Contains(stderr, lldpdUnreachable):
		src.Excerpt = "no LLDP agent: lldpd is not running (" + lineWith(stderr, lldpdUnreachable) + ")"
		return topology.Known(none, src)
	case !r.ok():
		src.Error = r.failure()
		return topology.Unknown[[]topology.LLDPNeighbor](src)
	}
	ns, err := ParseLLDPNeighbors(r.out.Stdout)
	if err != nil {
		src.Error = err.Error()
		src.Excerpt = firstLines(strings.TrimSpace(r.out.Stdout), 3)
		return topology.Unknown[[]topology.LLDPNeighbor](src)
	}
	src.Excerpt = neighborsExcerpt(ns)
	return topology.Known(ns, src)
}

// lineWith is the first line of text that contains sub.
func lineWith(text, sub string) string {
	for l := range strings.SplitSeq(text, "\n") {
		if strings.Contains(l, sub) {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// neighborsExcerpt names each neighbour in a line: the JSON itself is long and nested.
func neighborsExcerpt(ns []topology.LLDPNeighbor) string {
	if len(ns) == 0 {
		return "no LLDP neighbours"
	}
	// "LOCAL: SYSTEM port PORT (DESCR)" a neighbour, written at its exact size (fmt.Sprintf
	// and a concatenation a neighbour were most of the LLDP fact's allocations).
	size := len(ns) - 1
	for _, n := range ns {
		size += len(n.LocalPort) + len(": ") + len(orDash(n.SystemName)) + len(" port ") + len(orDash(n.PortID))
		if n.PortDescr != "" && n.PortDescr != n.PortID {
			size += len(" (") + len(n.PortDescr) + len(")")
		}
	}
	var b strings.Builder
	b.Grow(size)
	for i, n := range ns {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(n.LocalPort)
		b.WriteString(": ")
		b.WriteString(orDash(n.SystemName))
		b.WriteString(" port ")
		b.WriteString(orDash(n.PortID))
		if n.PortDescr != "" && n.PortDescr != n.PortID {
			b.WriteString(" (")
			b.WriteString(n.PortDescr)
			b.WriteString(")")
		}
	}
	return b.String()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
