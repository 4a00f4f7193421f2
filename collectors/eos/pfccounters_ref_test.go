package eos

import (
	"reflect"
	"testing"

	"github.com/roceaudit/roceaudit/collectors/internal/fuzzseed"
)

func pfcCountersCases(t testing.TB) []string {
	var cases []string
	for _, s := range []string{"healthy", "broken", "portchannel"} {
		if b, err := readSeed(s, CmdPFCCounters); err == nil {
			cases = append(cases, b, b+"x")
		}
	}
	if len(cases) == 0 {
		t.Fatal("no recorded reply")
	}
	return append(cases, "", "{}", "null", `{"interfaceCounters":null}`, `{"interfaceCounters":{}}`, `{"InterfaceCounters":{}}`,
		`{"interfaceCounters":{"Ethernet1":{"rxFrames":1,"txFrames":2}}}`, `{"interfaceCounters":{"Ethernet1":{"rxFrames":1}}}`,
		`{"interfaceCounters":{"Ethernet1":{"rxFrames":1,"txFrames":2},"Ethernet1":{"rxFrames":3,"txFrames":4}}}`,
		`{"interfaceCounters":{"Ethernet1":{"rxFrames":1.0,"txFrames":2}}}`, `{"interfaceCounters":{"Ethernet1":{"RXFrames":1,"txFrames":2}}}`,
		`{"interfaceCounters":{"Ethernet1":{"rxFrames":null,"txFrames":2}}}`, `{"interfaceCounters":{"Ethernet1":{"rxFrames":"1","txFrames":2}}}`,
		`{"interfaceCounters":{"Ethernet1":{"rxFrames":99999999999999999999,"txFrames":2}}}`, `{"interfaceCounters":{"Ethernet1":null}}`)
}

// The scan and its fallback agree with encoding/json alone: the same counters, and an error
// exactly when it had one.
func TestPFCCountersAgreesWithDecoder(t *testing.T) {
	for i, s := range pfcCountersCases(t) {
		got, gerr := ParsePFCCounters(s)
		want, werr := decodePFCCounters(s)
		if (gerr != nil) != (werr != nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("case %d %.120q:\n got %v, %v\nwant %v, %v", i, s, got, gerr, want, werr)
		}
	}
	if b, err := readSeed("healthy", CmdPFCCounters); err != nil {
		t.Fatal(err)
	} else if _, ok := scanPFCCounters(b); !ok {
		t.Error("the scan declines the recorded reply")
	}
}

func FuzzPFCCountersAgreesWithDecoder(f *testing.F) {
	addSeeds(f, append(fuzzseed.Minis(f, readSeed, CmdPFCCounters, 2, "healthy", "broken", "portchannel"), pfcCountersCases(f)...)...)
	f.Fuzz(func(t *testing.T, s string) {
		got, gerr := ParsePFCCounters(s)
		want, werr := decodePFCCounters(s)
		if (gerr != nil) != (werr != nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("%q:\n got %v, %v\nwant %v, %v", s, got, gerr, want, werr)
		}
	})
}
