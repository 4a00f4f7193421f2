package reports

import (
	"maps"
	"strings"
	"unicode/utf8"

	"github.com/roceaudit/roceaudit/checks"
)

// cleanText makes device output safe to print on a terminal or in a document: ANSI escape
// sequences (a switch CLI that colours its output) are dropped, other control characters
// become U+FFFD, so nothing from a device can move the cursor, retitle the window or leak an
// ESC byte into a report that promised none. Tabs and newlines stay.
func cleanText(s string) string {
	if !hasControl(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if j := csiEnd(s, i); j > i { // a CSI sequence (what wrapLine also steps over)
			i = j
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:]) // invalid UTF-8: U+FFFD, as []rune gives
		i += size
		switch {
		case r == '\r':
		case isControl(r):
			b.WriteRune('\uFFFD')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isControl(r rune) bool {
	return (r < 0x20 && r != '\t' && r != '\n') || (r >= 0x7f && r < 0xa0)
}

// hasControl is strings.ContainsFunc(s, isControl), by bytes: C0 controls and DEL are single
// bytes, C1 controls (U+0080..U+009F) are 0xC2 then 0x80..0x9F in UTF-8, and invalid UTF-8
// (decoded as U+FFFD, not a control) never is. A million results' strings at 10,000 devices
// were 0.2 s by runes.
func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 && c != '\t' && c != '\n', c == 0x7f:
			return true
		case c == 0xc2 && i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] < 0xa0:
			return true
		}
	}
	return false
}

// cleanReport is a deep copy of r with cleanText applied to every string a person reads.
func cleanReport(r *Report) *Report {
	c := *r
	c.Note = cleanText(r.Note)
	c.ToolVersion = cleanText(r.ToolVersion)
	c.Devices = make([]DeviceSummary, len(r.Devices))
	for i, d := range r.Devices {
		d.Name, d.Platform, d.Error = cleanText(d.Name), cleanText(d.Platform), cleanText(d.Error)
		c.Devices[i] = d
	}
	c.Paths = make([]Path, len(r.Paths))
	for i, p := range r.Paths {
		p.From, p.To = cleanText(p.From), cleanText(p.To)
		routes := make([][]Hop, len(p.Paths))
		for j, hops := range p.Paths {
			routes[j] = make([]Hop, len(hops))
			for k, h := range hops {
				routes[j][k] = Hop{Device: cleanText(h.Device), InPort: cleanText(h.InPort), OutPort: cleanText(h.OutPort)}
			}
		}
		p.Paths = routes
		c.Paths[i] = p
	}
	c.Transfers = make([]Transfer, len(r.Transfers))
	for i, x := range r.Transfers {
		x.From, x.To, x.Error = cleanText(x.From), cleanText(x.To), cleanText(x.Error)
		hops := make([]HopCounters, len(x.Hops))
		for j, h := range x.Hops {
			deltas := make(map[string]int64, len(h.CounterDeltas))
			for k, v := range h.CounterDeltas {
				deltas[cleanText(k)] = v
			}
			hops[j] = HopCounters{Device: cleanText(h.Device), Interface: cleanText(h.Interface), CounterDeltas: deltas}
		}
		x.Hops = hops
		x.GIDIndex = maps.Clone(x.GIDIndex)
		c.Transfers[i] = x
	}
	c.Ports = make([]PortFacts, len(r.Ports))
	for i, p := range r.Ports {
		for _, s := range []*string{&p.Device, &p.Interface, &p.MTU, &p.PFC, &p.Trust, &p.DCBX} {
			*s = cleanText(*s)
		}
		c.Ports[i] = p
	}
	// Results are shared when none needs cleaning (no renderer writes to them): a copy of a
	// million was ~200 MB at 10,000 devices.
	c.Results = r.Results
	clean := true
	for i := range r.Results {
		if resultNeedsCleaning(&r.Results[i]) {
			clean = false
			break
		}
	}
	if clean {
		return &c
	}
	c.Results = make([]checks.Result, len(r.Results))
	for i, res := range r.Results {
		if res.Evidence != nil {
			ev := *res.Evidence
			res.Evidence = &ev // cleaned below, not the report's own
		}
		for _, s := range resultTexts(&res) {
			*s = cleanText(*s)
		}
		c.Results[i] = res
	}
	return &c
}

// resultNeedsCleaning is whether cleanText changes any text of res.
func resultNeedsCleaning(res *checks.Result) bool {
	for _, s := range resultTexts(res) {
		if hasControl(*s) {
			return true
		}
	}
	return false
}

// resultTexts are the texts of res a person reads (its evidence's too), which cleanReport
// cleans: status and severity are the engine's own words.
func resultTexts(res *checks.Result) []*string {
	ts := make([]*string, 0, 12) // on the stack: the scan asks this of every result
	ts = append(ts, &res.Check, &res.Device, &res.Interface, &res.Peer, &res.Path,
		&res.Expected, &res.Actual, &res.Message, &res.Remediation)
	if ev := res.Evidence; ev != nil {
		ts = append(ts, &ev.Command, &ev.Excerpt, &ev.Error)
	}
	return ts
}
