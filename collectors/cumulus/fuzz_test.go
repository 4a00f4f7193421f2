package cumulus

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/collectors/internal/fixturerunner"
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
	seedAll(f)
	for _, s := range []string{
		`{"egress-queue-stats":{"3":{"tx-frames":"1","tx-bytes":2,"ecn-marked-frames":7}},"pfc-stats":{"15":{"rx-pause-frames":0}}}`,
		`{"egress-queue-stats":{"3":{"tx-frames":1,"tx-frames":2}}}`, `{"egress-queue-stats":{"3":{},"3":{"tx-frames":1}}}`,
		`{"pfc-stats":{"03":{"rx-pause-frames":1}}}`, `{"pfc-stats":{"1":{"rx-pause-frames":"-0"}}}`, `{"pfc-stats":null}`,
		`{"ingress-buffer-stats":{"0":{"rx-frames":99999999999999999999}},"other":[1,{"a":"\u0041"}]}`,
	} {
		f.Add(s)
	}
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
	seedAll(f)
	for _, s := range []string{
		`{"carrier-transitions": 1, "in-bytes": 0, "in-pkts": 12, "out-bytes": 99999999999999999999, "out-pkts": 3}`,
		`{"in-bytes": 1, "in-bytes": 2}`, `{"in-bytes": "1"}`, `{"in-bytes": -1}`, `{"in-bytes": 1.5}`, `{"in-bytes": 1e3}`,
		`{"in-drops": "7", "out-pkts": 2}`, `{"in-drops": null, "out-pkts": 2}`, `{}`, `null`, `{"a":{"in-bytes":1}}`,
		`{"in-bytes": 9223372036854775807}`, `{"in-bytes": 9223372036854775808}`, `{"in-bytes": 1} x`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, out string) {
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
	seedAll(f)
	for _, s := range []string{
		`{"egress-queue-stats":{"3":{"tx-frames":"1","tx-bytes":2,"ecn-marked-frames":7}},"pfc-stats":{"15":{"rx-pause-frames":0}}}`,
		`{"egress-queue-stats":{"3":{"tx-frames":1,"tx-frames":2}}}`, `{"egress-queue-stats":{"3":{},"3":{"tx-frames":1}}}`,
		`{"pfc-stats":{"03":{"rx-pause-frames":1}}}`, `{"pfc-stats":{"1":{"rx-pause-frames":"-0"}}}`, `{"pfc-stats":null}`,
		`{"ingress-buffer-stats":{"0":{"rx-frames":99999999999999999999}},"other":[1,{"a":"\u0041"}]}`,
		`{"pfc-stats":{"1":{"rx-pause-frames":012}}}`, `{"pfc-stats":{"1":{"rx-pause-frames":1.0}}}`, `{"pfc-stats":{"1":{"rx-pause-frames":"0012"}}}`,
		`{"pfc-stats":{"1":{"rx-pause-frames":0}}}`, `{"pfc-stats":{}}`, `{}`, ` {"pfc-stats":{"9":{"tx-pause-frames":5}}} `,
	} {
		f.Add(s)
	}
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
