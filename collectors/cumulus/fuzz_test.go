package cumulus

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/collectors/internal/fixturerunner"
	"github.com/roceaudit/roceaudit/collectors/internal/switchcollect"
)

// seedAll adds every fixture file as a seed: the fuzzers start from real output.
func seedAll(f *testing.F) { fixturerunner.SeedDirs(f, fixtures{}, "verbatim", "healthy", "broken") }

// Every parser may reject input, never panic.
func FuzzParsers(f *testing.F) {
	seedAll(f)
	f.Fuzz(func(t *testing.T, out string) {
		_, _ = ParseRoCE(out)
		_, _ = ParseRoCEStatus(out)
		_, _ = ParseInterfaceLLDP(out)
		_, _ = ParseLink(out)
		_, _ = ParseMapping(out)
		_, _, _ = ParseEgressQueueMapping(out)
		_, _, _ = ParseEgressScheduler(out)
		_, _, _ = ParseCongestionControl(out)
		_, _ = ParsePFC(out)
		_, _, _ = ParseLinkPause(out)
		_, _, _ = ParsePFCWatchdog(out)
		_, _ = ParseCountersQoS(out)
		_, _ = ParseSystem(out)
	})
}

// The JSON parsers may reject input, never panic.
func FuzzJSONParsers(f *testing.F) {
	seedAll(f)
	f.Add(`{"swp1":{"type":"swp","lldp":{"neighbor":{"a":{"chassis":{"system-name":"a"},"port":{"name":"p"}}}}}}`)
	f.Add(`{"egress-queue-stats":{"3":{"tx-frames":"1","tx-bytes":2}}}`)
	f.Fuzz(func(t *testing.T, out string) {
		_, _ = ParseInterfaceLLDPJSON(out)
		_, _ = ParseCountersQoSJSON(out)
	})
}

// The counters' scan reads exactly what encoding/json reads, or declines.
func FuzzCountersQoSScan(f *testing.F) {
	smallFirst(f,
		`{"egress-queue-stats":{"3":{"tx-frames":"1","tx-bytes":2,"ecn-marked-frames":7}},"pfc-stats":{"15":{"rx-pause-frames":0}}}`,
		`{"egress-queue-stats":{"3":{"tx-frames":1,"tx-frames":2}}}`, `{"egress-queue-stats":{"3":{},"3":{"tx-frames":1}}}`,
		`{"pfc-stats":{"03":{"rx-pause-frames":1}}}`, `{"pfc-stats":{"1":{"rx-pause-frames":"-0"}}}`, `{"pfc-stats":null}`,
		`{"ingress-buffer-stats":{"0":{"rx-frames":99999999999999999999}},"other":[1,{"a":"\u0041"}]}`,
	)
	f.Fuzz(func(t *testing.T, out string) {
		got, ok := countersQoSScan(out)
		if !ok {
			return
		}
		want, err := countersQoSDecode(out)
		if err != nil {
			t.Fatalf("the scan read %v where the decoder fails: %v", got, err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("scan and decoder differ (-decoder +scan):\n%s", d)
		}
	})
}

// The link stats' scan reads exactly what encoding/json reads, or declines.
func FuzzLinkStatsScan(f *testing.F) {
	smallFirst(f,
		`{"carrier-transitions": 1, "in-bytes": 0, "in-pkts": 12, "out-bytes": 99999999999999999999, "out-pkts": 3}`,
		`{"in-bytes": 1, "in-bytes": 2}`, `{"in-bytes": "1"}`, `{"in-bytes": -1}`, `{"in-bytes": 1.5}`, `{"in-bytes": 1e3}`,
		`{"in-drops": "7", "out-pkts": 2}`, `{"in-drops": null, "out-pkts": 2}`, `{}`, `null`, `{"a":{"in-bytes":1}}`,
		`{"in-bytes": 9223372036854775807}`, `{"in-bytes": 9223372036854775808}`, `{"in-bytes": 1} x`,
	)
	f.Fuzz(func(t *testing.T, out string) {
		// what addLinkStats reads is ParseLinkStatsJSON's, errors included
		lc, lcErr := linkCountsJSON(out)
		m, err := ParseLinkStatsJSON(out)
		if fmt.Sprint(lcErr) != fmt.Sprint(err) {
			t.Fatalf("linkCountsJSON error %v, ParseLinkStatsJSON %v", lcErr, err)
		}
		if err == nil {
			if d := cmp.Diff(m, lc.counterMap()); d != "" || lc.len() != len(m) {
				t.Fatalf("linkCountsJSON (len %d) differs from ParseLinkStatsJSON (-parse +counts):\n%s", lc.len(), d)
			}
		}
		got, ok := linkStatsScan(out)
		if !ok {
			return
		}
		want, err := linkStatsDecode(out)
		if err != nil {
			t.Fatalf("the scan read %v where the decoder fails: %v", got, err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("scan and decoder differ (-decoder +scan):\n%s", d)
		}
	})
}

// The counters' fast reader reads exactly what encoding/json reads, or declines.
func FuzzCountersQoSFast(f *testing.F) {
	smallFirst(f,
		`{"egress-queue-stats":{"3":{"tx-frames":"1","tx-bytes":2,"ecn-marked-frames":7}},"pfc-stats":{"15":{"rx-pause-frames":0}}}`,
		`{"egress-queue-stats":{"3":{"tx-frames":1,"tx-frames":2}}}`, `{"egress-queue-stats":{"3":{},"3":{"tx-frames":1}}}`,
		`{"pfc-stats":{"03":{"rx-pause-frames":1}}}`, `{"pfc-stats":{"1":{"rx-pause-frames":"-0"}}}`, `{"pfc-stats":null}`,
		`{"ingress-buffer-stats":{"0":{"rx-frames":99999999999999999999}},"other":[1,{"a":"\u0041"}]}`,
		`{"pfc-stats":{"1":{"rx-pause-frames":012}}}`, `{"pfc-stats":{"1":{"rx-pause-frames":1.0}}}`, `{"pfc-stats":{"1":{"rx-pause-frames":"0012"}}}`,
		`{"pfc-stats":{"1":{"rx-pause-frames":0}}}`, `{"pfc-stats":{}}`, `{}`, ` {"pfc-stats":{"9":{"tx-pause-frames":5}}} `,
	)
	f.Fuzz(func(t *testing.T, out string) {
		got, ok := countersQoSFast(out)
		if !ok {
			return
		}
		want, err := countersQoSDecode(out)
		if err != nil {
			t.Fatalf("the fast reader read %v where the decoder fails: %v", got, err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("fast reader and decoder differ (-decoder +fast):\n%s", d)
		}
	})
}

// The LLDP JSON scan reads exactly what the decoder read before it, or declines; the parser
// (scan or decoder) answers as the old parser did, errors included.
func FuzzInterfaceLLDPScan(f *testing.F) {
	smallFirst(f,
		`{"swp1":{"type":"swp","lldp":{"neighbor":{"b":{"chassis":{"system-name":"b"},"port":{"name":"p2"}},"a":{"chassis":{"system-name":"a"},"port":{"name":"p"}}}}},"eth0":{"type":"eth"}}`,
		`{"swp1":{"lldp":{"neighbor":{}}},"swp2":{"lldp":{}},"swp3":{}}`, `{"swp1":{"type":"swp"},"swp1":{"type":"eth"}}`,
		`{"swp1":{"type":"swp"},"swp01":{"type":"swp"}}`, `{"":{"type":"swp"}}`, `{}`, `null`, `{"swp1":null}`,
		`{"swp1":{"Type":"swp"}}`, `{"swp1":{"type":"s\u0077p"}}`, `{"swp1":{"lldp":{"neighbor":{"a":{},"a":{"port":{"name":"x"}}}}}}`,
		`{"swp1":{"lldp":{"neighbor":{"a":{"chassis":{"system-name":null}}}}}}`, `{"swp1":{"type":"swp","other":[1,{"x":true}]}}`,
	)
	f.Fuzz(func(t *testing.T, out string) {
		if got, ok := interfaceLLDPScan(out); ok {
			want, err := interfaceLLDPOracle(out)
			if err != nil {
				t.Fatalf("the scan read %v where the decoder fails: %v", got, err)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Fatalf("scan and decoder differ (-decoder +scan):\n%s", d)
			}
		}
		got, gotErr := ParseInterfaceLLDPJSON(out)
		want, wantErr := interfaceLLDPOracle(out)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("error %v, the old parser's %v", gotErr, wantErr)
		}
		if len(got) != len(want) {
			t.Fatalf("%d interfaces, the old parser %d", len(got), len(want))
		}
	})
}

// portTemplates joined with a port (appendPortCommands) are switchcollect.ForPort's commands
// for it.
func FuzzPortTemplates(f *testing.F) {
	for _, s := range [][3]string{
		{"nv show interface swp1 link\nnv show qos roce\nnv show interface swp1 counters qos -o json", "swp1", "swp17"},
		{" swp1  swp1 x swp1 \n\nswp1\nswp10 link", "swp1", "swp2s0"}, {"a  b \n\n c", "", "x"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, cmds, from, to string) {
		list := strings.Split(cmds, "\n")
		got := appendPortCommands(nil, portTemplates(list, from), to)
		if want := switchcollect.ForPort(list, from, to); !slices.Equal(got, want) {
			t.Fatalf("%q for %q: %q, ForPort %q", list, to, got, want)
		}
	})
}

// joinLines is what it was: the non-empty lines joined by newlines.
func FuzzJoinLines(f *testing.F) {
	f.Add("a", "", "b\nc")
	f.Add("", "", "")
	f.Add("", "x", "")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		for _, args := range [][]string{{a}, {a, b}, {a, b, c}, {c, a, b, a}} {
			if got, want := joinLines(args...), joinLinesOracle(args...); got != want {
				t.Fatalf("joinLines(%q) = %q, want %q", args, got, want)
			}
		}
	})
}
