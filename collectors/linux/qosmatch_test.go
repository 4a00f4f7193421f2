package linux

import (
	"regexp"
	"testing"
)

// The regexps the mlnx_qos row matchers replaced: the reference they must agree with.
var (
	refDSCPLine = regexp.MustCompile(`^prio:(\d+) dscp:([\d,]*)$`)
	refTCLine   = regexp.MustCompile(`^tc: (\d+) ratelimit: ([^,]+), tsa: (\w+)`)
	refTCPrio   = regexp.MustCompile(`^priority:\s+(\d+)$`)
)

func checkQosMatchers(t *testing.T, line string) {
	m := refDSCPLine.FindStringSubmatch(line)
	p, list, ok := matchDSCPLine(line)
	if ok != (m != nil) || ok && (p != m[1] || list != m[2]) {
		t.Errorf("matchDSCPLine(%q) = %q %q %v, regexp %q", line, p, list, ok, m)
	}
	m = refTCLine.FindStringSubmatch(line)
	tc, tsa, ok := matchTCLine(line)
	if ok != (m != nil) || ok && (tc != m[1] || tsa != m[3]) {
		t.Errorf("matchTCLine(%q) = %q %q %v, regexp %q", line, tc, tsa, ok, m)
	}
	m = refTCPrio.FindStringSubmatch(line)
	p, ok = matchTCPrio(line)
	if ok != (m != nil) || ok && p != m[1] {
		t.Errorf("matchTCPrio(%q) = %q %v, regexp %q", line, p, ok, m)
	}
}

var qosMatcherLines = []string{"", "prio:0 dscp:07,06,05,04,03,02,01,00,", "prio:3 dscp:26,", "prio:3 dscp:", "prio: dscp:1",
	"prio:3  dscp:1", "prio:3 dscp:1 ", "prio:3 dscp:1a", "prio:12 dscp:,,", "tc: 0 ratelimit: unlimited, tsa: vendor",
	"tc: 3 ratelimit: unlimited, tsa: ets, bw: 50%", "tc: 3 ratelimit: , tsa: ets", "tc: 3 ratelimit: a,b, tsa: ets",
	"tc: 3 ratelimit: 10 Gbps, tsa: ", "tc: 3 ratelimit: 10 Gbps, tsa: strict_1x", "tc: x ratelimit: u, tsa: s", "tc: 3 ratelimit: é, tsa: é",
	"priority:\t3", "priority: 3", "priority:3", "priority:  \f 7", "priority: 3 ", "priority: \v3", "priority: 3x", "priority:"}

func TestQosMatchersAgreeWithRegexps(t *testing.T) {
	for _, l := range qosMatcherLines {
		checkQosMatchers(t, l)
	}
	// The rows of real output match (the agreement above would also hold for two matchers
	// that never match).
	_, _, ok1 := matchDSCPLine("prio:3 dscp:26,")
	_, tsa, ok2 := matchTCLine("tc: 3 ratelimit: unlimited, tsa: ets")
	p, ok3 := matchTCPrio("priority:  3")
	if !ok1 || !ok2 || tsa != "ets" || !ok3 || p != "3" {
		t.Errorf("real rows: dscp %v, tc %v %q, priority %v %q", ok1, ok2, tsa, ok3, p)
	}
}

// go test -fuzz=FuzzQosMatchers -fuzztime=30s ./collectors/linux
func FuzzQosMatchers(f *testing.F) {
	for _, l := range qosMatcherLines {
		f.Add(l)
	}
	f.Fuzz(checkQosMatchers)
}
