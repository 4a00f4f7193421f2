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
	for _, c := range []struct {
		cmd  string
		fast func(string) bool
	}{
		{CmdLLDP, func(s string) bool { _, ok := scanLLDP(s); return ok }},
		{CmdPFCCounters, func(s string) bool { _, ok := scanPFCCounters(s); return ok }},
		{CmdInterfaces, func(s string) bool { _, ok := scanInterfaces(s); return ok }},
	} {
		b, err := readSeed("healthy", c.cmd)
		if err != nil {
			t.Fatal(err)
		}
		m := fuzzseed.MiniJSON(b, 2, 0)
		if len(m) > 4096 || !c.fast(m) {
			t.Errorf("%q: a miniature of %d bytes (fast path reads it: %v):\n%s", c.cmd, len(m), c.fast(m), m)
		}
		if n := len(fuzzseed.Minis(t, readSeed, c.cmd, 2, "healthy")); n < 50 {
			t.Errorf("%q: %d seeds", c.cmd, n)
		}
	}
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
