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
	pfc, queue, iface       *counterRows
	pfcEv, queueEv, ifaceEv topology.Evidence
	// notes are the excerpts of ports with all three, by their counts: every port of a leaf
	// has the same
	notes map[[3]int]string
}

func collectCounters(ctx context.Context, r collectors.Runner) counterSet {
	cs := counterSet{notes: map[[3]int]string{}}
	cs.pfc, cs.pfcEv = evidence.Read(ctx, r, CmdPFCCounters, scanPFCCounters)
	cs.queue, cs.queueEv = evidence.Read(ctx, r, CmdQueueCounters, scanQueueCounters)
	cs.iface, cs.ifaceEv = evidence.Read(ctx, r, CmdInterfaceCounters, scanInterfaceCounters)
	return cs
}

// port merges a port's PFC, queue and interface (packet) counters. Known when either command has rows for the
// port; the excerpt says what is missing.
func (cs counterSet) port(name string) topology.Fact[map[string]int64] {
	ev := topology.Evidence{Command: CmdPFCCounters + "; " + CmdQueueCounters + "; " + CmdInterfaceCounters}
	parts := [...]struct {
		what string
		cr   *counterRows
		rows []counterEntry
		ev   *topology.Evidence
	}{{"PFC", cs.pfc, cs.pfc.of(name), &cs.pfcEv}, {"queue", cs.queue, cs.queue.of(name), &cs.queueEv},
		{"interface", cs.iface, cs.iface.of(name), &cs.ifaceEv}}
	size := 0
	for _, part := range parts {
		if part.ev.Error == "" {
			size += len(part.rows)
		}
	}
	m := make(map[string]int64, size)
	// The three commands' names never meet (pfc_..., [mc_|all_]queue<n>_..., rx_/tx_packets),
	// so what a part adds to m is how many counters it has.
	var counts [3]int
	complete := true
	for i, part := range parts {
		if part.ev.Error != "" || len(part.rows) == 0 {
			complete = false
			continue
		}
		before := len(m)
		for _, e := range part.rows {
			m[part.cr.names[e.name]] = e.v
		}
		counts[i] = len(m) - before
	}
	if complete {
		if notes, ok := cs.notes[counts]; ok {
			ev.Excerpt = notes
			return topology.Known(m, ev)
		}
	}
	var notes, errs []string
	for i, part := range parts {
		switch {
		case part.ev.Error != "":
			errs = append(errs, part.ev.Error)
			notes = append(notes, fmt.Sprintf("%s counters unreadable", part.what))
		case len(part.rows) == 0:
			errs = append(errs, fmt.Sprintf("%s: no rows for %s", part.ev.Command, name))
			notes = append(notes, fmt.Sprintf("no %s counters for %s", part.what, name))
		default:
			notes = append(notes, strconv.Itoa(counts[i])+" "+part.what+" counters")
		}
	}
	if len(m) == 0 {
		ev.Error = strings.Join(errs, "; ")
		return topology.Unknown[map[string]int64](ev)
	}
	ev.Excerpt = strings.Join(notes, "; ")
	if complete {
		cs.notes[counts] = ev.Excerpt
	}
	return topology.Known(m, ev)
}
