package eos

// Small fuzz seeds: miniatures of this package's recorded replies (see fuzzseed).

import (
	"reflect"
	"testing"

	"github.com/roceaudit/roceaudit/collectors/internal/fuzzseed"
)

func addSeeds(f *testing.F, seeds ...string) { fuzzseed.Add(f, seeds...) }

// The miniatures are small, and still what the fast paths read: a miniature they declined
// would fuzz only the fallback.
func TestMiniSeeds(t *testing.T) {
	fuzzseed.CheckMinis(t, readSeed, "healthy",
		fuzzseed.FastReader{Cmd: CmdLLDP, Reads: func(s string) bool { _, ok := scanLLDP(s); return ok }},
		fuzzseed.FastReader{Cmd: CmdPFCCounters, Reads: func(s string) bool { _, ok := scanPFCCounters(s); return ok }},
		fuzzseed.FastReader{Cmd: CmdInterfaces, Reads: func(s string) bool { _, ok := scanInterfaces(s); return ok }},
	)
}

// One neighbour record, in a fixed minimal reply: the fuzzer's mutations all land in the
// record the scan reads field by field. port is the local port's key as written (JSON text).
func FuzzLLDPRecordAgreesWithReference(f *testing.F) {
	var recs []string
	for _, sc := range []string{"healthy", "broken", "portchannel"} {
		if b, err := readSeed(sc, CmdLLDP); err == nil {
			recs = append(recs, fuzzseed.Records(b, "lldpNeighbors", "*", "lldpNeighborInfo", "*")...)
		}
	}
	if len(recs) == 0 {
		f.Fatal("no recorded neighbour")
	}
	for _, r := range append(recs[:1], fuzzseed.JSONVariants(recs[0], 25)...) {
		f.Add(`"Ethernet1"`, r)
	}
	for _, port := range []string{`"Ethernet1/1"`, `"Eth\u0065rnet1"`, `"Management1"`, `""`, `"é"`, `null`, `"Ethernet1","Ethernet1":{}`} {
		f.Add(port, recs[0])
	}
	for _, r := range recs[1:] {
		f.Add(`"Ethernet2"`, r)
	}
	f.Fuzz(func(t *testing.T, port, rec string) {
		s := `{"lldpNeighbors":{` + port + `:{"lldpNeighborInfo":[` + rec + `]}}}`
		got, gerr := ParseLLDP(s)
		want, werr := parseLLDPRef(s)
		if (gerr != nil) != (werr != nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("%q:\n got %v, %v\nwant %v, %v", s, got, gerr, want, werr)
		}
	})
}
