package eos

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/roceaudit/roceaudit/collectors/internal/fuzzseed"
)

// The fuzz targets check that no output, however malformed, panics a parser: each returns a
// value or an error.

func seed(f *testing.F, cmd string) {
	for _, s := range []string{"healthy", "broken"} {
		if b, err := readSeed(s, cmd); err == nil {
			f.Add(b)
		}
	}
	f.Add("")
	f.Add("{}")
	f.Add("null")
}

func FuzzParseInterfaces(f *testing.F) {
	seed(f, CmdInterfaces)
	f.Fuzz(func(t *testing.T, s string) { _, _ = ParseInterfaces(s) })
}

func FuzzParseLLDP(f *testing.F) {
	seed(f, CmdLLDP)
	f.Fuzz(func(t *testing.T, s string) { _, _ = ParseLLDP(s) })
}

func FuzzParseVersionAndCounters(f *testing.F) {
	seed(f, CmdVersion)
	seed(f, CmdPFCCounters)
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = ParseVersion(s)
		_, _ = ParsePFCCounters(s)
	})
}

func FuzzParseFlowcontrol(f *testing.F) {
	seed(f, CmdFlowcontrol)
	f.Fuzz(func(t *testing.T, s string) { _, _ = ParseFlowcontrol(s) })
}

func FuzzParseRunningConfig(f *testing.F) {
	seed(f, CmdRunningConfig)
	f.Fuzz(func(t *testing.T, s string) {
		rc, err := ParseRunningConfig(s)
		if err != nil {
			return
		}
		for _, ic := range rc.Interfaces {
			if e, err := rc.EffectiveQoS(ic); err == nil {
				_ = e.PFCPriorities(rc.PFCAllOff)
				_ = e.Schedulers()
				_ = e.ECNQueues()
			}
		}
	})
}

// The interfaces' scan decodes exactly what encoding/json decodes, or declines.
func FuzzScanInterfaces(f *testing.F) {
	seeds := fuzzseed.Minis(f, readSeed, CmdInterfaces, 2, "healthy", "broken", "portchannel")
	for _, sc := range []string{"healthy", "broken"} {
		if b, err := readSeed(sc, CmdInterfaces); err == nil {
			seeds = append(seeds, b)
		}
	}
	addSeeds(f, append(seeds, "", "{}", "null",
		`{"interfaces":{"Ethernet1":{"mtu":9214,"bandwidth":4e11,"interfaceStatus":"connected","forwardingModel":"bridged","name":"x","interfaceCounters":{"inOctets":-0,"inputErrorsDetail":{},"outputErrorsDetail":{"txPause":3}}}}}`,
		`{"interfaces":{"Ethernet1":{"mtu":1.5}}}`, `{"interfaces":{"Ethernet1":{"MTU":1}}}`, `{"interfaces":{"E":{},"E":{"mtu":1}}}`,
		`{"interfaces":null}`, `{"interfaces":{"E":{"mtu":null}}}`, `{"Interfaces":{}}`, `{"interfaces":{"E":{"interfaceCounters":{"inOctets":99999999999999999999}}}}`)...)
	f.Fuzz(func(t *testing.T, out string) {
		got, ok := scanInterfaces(out)
		if !ok {
			return
		}
		var want interfacesJSON
		if err := json.Unmarshal([]byte(out), &want); err != nil {
			t.Fatalf("%q: the scan read %+v where encoding/json fails: %v", out, got, err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("%q: scan and encoding/json differ (-json +scan):\n%s", out, d)
		}
	})
}

// The scan reads the recorded replies itself: were it to decline them, the fast path would
// silently never run.
func TestScanInterfacesReadsFixtures(t *testing.T) {
	for _, scenario := range []string{"healthy", "broken", "portchannel"} {
		out, err := readSeed(scenario, CmdInterfaces)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := scanInterfaces(out); !ok {
			t.Errorf("%s: the scan declines the recorded %s", scenario, CmdInterfaces)
		}
	}
}
