package sonic

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/internal/evidence"
	"github.com/roceaudit/roceaudit/topology"
)

// counterSet is what the three counter commands returned.
type counterSet struct {
	pfc, queue, iface       PortCounters
	pfcEv, queueEv, ifaceEv topology.Evidence
}

func collectCounters(ctx context.Context, r collectors.Runner) counterSet {
	var cs counterSet
	cs.pfc, cs.pfcEv = evidence.Read(ctx, r, CmdPFCCounters, ParsePFCCounters)
	cs.queue, cs.queueEv = evidence.Read(ctx, r, CmdQueueCounters, ParseQueueCounters)
	cs.iface, cs.ifaceEv = evidence.Read(ctx, r, CmdInterfaceCounters, ParseInterfaceCounters)
	return cs
}

// port merges a port's PFC, queue and interface (packet) counters. Known when either command has rows for the
// port; the excerpt says what is missing.
func (cs counterSet) port(name string) topology.Fact[map[string]int64] {
	ev := topology.Evidence{Command: CmdPFCCounters + "; " + CmdQueueCounters + "; " + CmdInterfaceCounters}
	m := map[string]int64{}
	var notes, errs []string
	for _, part := range []struct {
		what string
		pc   PortCounters
		ev   topology.Evidence
	}{{"PFC", cs.pfc, cs.pfcEv}, {"queue", cs.queue, cs.queueEv}, {"interface", cs.iface, cs.ifaceEv}} {
		switch {
		case part.ev.Error != "":
			errs = append(errs, part.ev.Error)
			notes = append(notes, fmt.Sprintf("%s counters unreadable", part.what))
		case len(part.pc[name]) == 0:
			errs = append(errs, fmt.Sprintf("%s: no rows for %s", part.ev.Command, name))
			notes = append(notes, fmt.Sprintf("no %s counters for %s", part.what, name))
		default:
			for k, v := range part.pc[name] {
				m[k] = v
			}
			notes = append(notes, strconv.Itoa(len(part.pc[name]))+" "+part.what+" counters")
		}
	}
	if len(m) == 0 {
		ev.Error = strings.Join(errs, "; ")
		return topology.Unknown[map[string]int64](ev)
	}
	ev.Excerpt = strings.Join(notes, "; ")
	return topology.Known(m, ev)
}
