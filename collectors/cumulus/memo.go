package cumulus

import (
	"maps"
	"sync"

	"github.com/roceaudit/roceaudit/topology"
)

// portMemo is one collection's memo of the per-port text parsers by output: a leaf's ports
// mostly print the same link, link-pause and watchdog answers (they differ in the port's
// speed and state, a few variants a switch), and parsing each of ~250 anew was a fifth of a
// leaf's collection; in the generic regime the five QoS answers a port were three quarters
// (BenchmarkParseGenericLeaf: ~32 -> ~7.5 ms, 99k -> 12k allocations). Results are values or read-only: whatever a port keeps that could be
// changed (a map) is made per port from them. A nil memo parses every output.
type portMemo struct {
	status statusMemo
	link   outMemo[linkParsed]
	pause  outMemo[pauseParsed]
	wd     outMemo[wdParsed]
	// the generic regime's five QoS commands: a port keeps clones of the maps
	mapping    outMemo[parsed[Mapping]]
	egressQ    outMemo[parsed[map[int]int]]
	egressS    outMemo[parsed[map[int]string]]
	congestion outMemo[parsed[map[int]bool]]
	pfc        outMemo[parsed[PFC]]
}

// parsed is what a parser returned: a value, its excerpt (when the parser gives one apart)
// and its error.
type parsed[T any] struct {
	v   T
	ex  string
	err error
}

type linkParsed struct {
	l   Link
	err error
}

type pauseParsed struct {
	p   topology.Pause
	ex  string
	err error
}

type wdParsed struct {
	on  bool
	ex  string
	err error
}

// memoMax bounds the outputs an outMemo keeps: past it (every port answering differently,
// as counters would) outputs are parsed without being remembered.
const memoMax = 64

// outMemo remembers parse(out) by out. Concurrent ports share it.
type outMemo[T any] struct {
	mu sync.Mutex
	m  map[string]T
}

func (m *outMemo[T]) get(out string, parse func(string) T) T {
	m.mu.Lock()
	v, ok := m.m[out]
	m.mu.Unlock()
	if ok {
		return v
	}
	v = parse(out)
	m.mu.Lock()
	if m.m == nil {
		m.m = make(map[string]T)
	}
	if len(m.m) < memoMax {
		m.m[out] = v
	}
	m.mu.Unlock()
	return v
}

func parseLinkOnce(out string) linkParsed {
	l, err := ParseLink(out)
	return linkParsed{l, err}
}

func parsePauseOnce(out string) pauseParsed {
	p, ex, err := ParseLinkPause(out)
	return pauseParsed{p, ex, err}
}

func parseWatchdogOnce(out string) wdParsed {
	on, ex, err := ParsePFCWatchdog(out)
	return wdParsed{on, ex, err}
}

// parseLink is ParseLink of out, remembered.
func (m *portMemo) parseLink(out string) (Link, error) {
	if m == nil {
		return ParseLink(out)
	}
	p := m.link.get(out, parseLinkOnce)
	return p.l, p.err
}

// parseLinkPause is ParseLinkPause of out, remembered.
func (m *portMemo) parseLinkPause(out string) (topology.Pause, string, error) {
	if m == nil {
		return ParseLinkPause(out)
	}
	p := m.pause.get(out, parsePauseOnce)
	return p.p, p.ex, p.err
}

// parsePFCWatchdog is ParsePFCWatchdog of out, remembered.
func (m *portMemo) parsePFCWatchdog(out string) (bool, string, error) {
	if m == nil {
		return ParsePFCWatchdog(out)
	}
	p := m.wd.get(out, parseWatchdogOnce)
	return p.on, p.ex, p.err
}

// statusMemo is the memo of port RoCE statuses (nil: parse each).
func (m *portMemo) statusMemo() *statusMemo {
	if m == nil {
		return nil
	}
	return &m.status
}

// parseMapping is ParseMapping of out, remembered; the maps are the caller's to keep.
func (m *portMemo) parseMapping(out string) (Mapping, error) {
	if m == nil {
		return ParseMapping(out)
	}
	p := m.mapping.get(out, func(out string) parsed[Mapping] {
		v, err := ParseMapping(out)
		return parsed[Mapping]{v: v, err: err}
	})
	v := p.v
	v.DSCPToSP, v.PCPToSP = maps.Clone(v.DSCPToSP), maps.Clone(v.PCPToSP)
	return v, p.err
}

// parseEgressQueueMapping is ParseEgressQueueMapping of out, remembered; the map is the
// caller's to keep.
func (m *portMemo) parseEgressQueueMapping(out string) (map[int]int, string, error) {
	if m == nil {
		return ParseEgressQueueMapping(out)
	}
	p := m.egressQ.get(out, parsedBy(ParseEgressQueueMapping))
	return maps.Clone(p.v), p.ex, p.err
}

// parseEgressScheduler is ParseEgressScheduler of out, remembered; the map is the caller's
// to keep.
func (m *portMemo) parseEgressScheduler(out string) (map[int]string, string, error) {
	if m == nil {
		return ParseEgressScheduler(out)
	}
	p := m.egressS.get(out, parsedBy(ParseEgressScheduler))
	return maps.Clone(p.v), p.ex, p.err
}

// parseCongestionControl is ParseCongestionControl of out, remembered: the map is shared,
// read-only (the port's is made from it).
func (m *portMemo) parseCongestionControl(out string) (map[int]bool, string, error) {
	if m == nil {
		return ParseCongestionControl(out)
	}
	p := m.congestion.get(out, parsedBy(ParseCongestionControl))
	return p.v, p.ex, p.err
}

// parsePFC is ParsePFC of out, remembered: its switch priorities are shared, read-only (the
// port clones what it keeps).
func (m *portMemo) parsePFC(out string) (PFC, error) {
	if m == nil {
		return ParsePFC(out)
	}
	p := m.pfc.get(out, func(out string) parsed[PFC] {
		v, err := ParsePFC(out)
		return parsed[PFC]{v: v, err: err}
	})
	return p.v, p.err
}

func parsedBy[T any](parse func(string) (T, string, error)) func(string) parsed[T] {
	return func(out string) parsed[T] {
		v, ex, err := parse(out)
		return parsed[T]{v, ex, err}
	}
}
