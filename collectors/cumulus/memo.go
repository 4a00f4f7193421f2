package cumulus

import (
	"sync"

	"github.com/roceaudit/roceaudit/topology"
)

// portMemo is one collection's memo of the per-port text parsers by output: a leaf's ports
// mostly print the same link, link-pause and watchdog answers (they differ in the port's
// speed and state, a few variants a switch), and parsing each of ~250 anew was a fifth of a
// leaf's collection. Results are values or read-only: whatever a port keeps that could be
// changed (a map) is made per port from them. A nil memo parses every output.
type portMemo struct {
	status statusMemo
	link   outMemo[linkParsed]
	pause  outMemo[pauseParsed]
	wd     outMemo[wdParsed]
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
