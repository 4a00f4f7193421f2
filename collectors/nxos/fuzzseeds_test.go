package nxos

// Small fuzz seeds: miniatures of this package's recorded replies (see fuzzseed).

import (
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/collectors/internal/fuzzseed"

	"github.com/google/go-cmp/cmp"
)

func addSeeds(f *testing.F, seeds ...string) { fuzzseed.Add(f, seeds...) }

// The miniatures are small, and still what the fast paths read: a miniature they declined
// would fuzz only the fallback.
func TestMiniSeeds(t *testing.T) {
	fuzzseed.CheckMinis(t, readSeed, "healthy",
		fuzzseed.FastReader{Cmd: CmdLLDP, Reads: func(s string) bool { _, ok := scanLLDPRows(s); return ok }},
		fuzzseed.FastReader{Cmd: CmdInterface, Reads: func(s string) bool { _, ok := scanInterfaceRows(s); return ok }},
		fuzzseed.FastReader{Cmd: CmdInterface, Reads: func(s string) bool { _, ok := fastInterfaceRows(s); return ok }},
		fuzzseed.FastReader{Cmd: CmdQueuingJSON, Reads: func(s string) bool { _, ok := scanQueuingJSON(s); return ok }},
		fuzzseed.FastReader{Cmd: CmdQueuingJSON, Reads: func(s string) bool { _, ok := fastQueuingJSON(s); return ok }},
	)
}

// One interface row, in a fixed minimal reply: the fuzzer's mutations all land in the row the
// scan and the fast reader read field by field; both read it as encoding/json does, or decline.
func FuzzInterfaceRecordAgreesWithDecoder(f *testing.F) {
	var recs []string
	for _, sc := range []string{"healthy", "broken", "aiml", "portchannel"} {
		if b, err := readSeed(sc, CmdInterface); err == nil {
			recs = append(recs, fuzzseed.Records(b, "TABLE_interface", "ROW_interface", "*")...)
		}
	}
	if len(recs) < 2 {
		f.Fatal("no recorded interface row")
	}
	// the front-panel row, not mgmt0, to lead
	for i, r := range recs {
		if strings.Contains(r, `"Ethernet`) {
			recs[0], recs[i] = recs[i], recs[0]
			break
		}
	}
	addSeeds(f, append(append(recs[:2:2], fuzzseed.JSONVariants(recs[0], 30)...), recs[2:]...)...)
	f.Fuzz(func(t *testing.T, rec string) {
		s := `{"TABLE_interface":{"ROW_interface":[` + rec + `]}}`
		for name, read := range map[string]func(string) ([]interfaceRow, bool){"scan": scanInterfaceRows, "fast": fastInterfaceRows} {
			got, ok := read(s)
			if !ok {
				continue
			}
			want, err := decodeInterfaceRows(s)
			if err != nil {
				t.Fatalf("%q: the %s read %+v where encoding/json fails: %v", s, name, got, err)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Fatalf("%q: %s and encoding/json differ (-json +%s):\n%s", s, name, name, d)
			}
		}
	})
}
