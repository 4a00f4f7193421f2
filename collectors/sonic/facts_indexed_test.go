package sonic

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/topology"
)

// checkIndexedFacts compares every port's facts from an indexed db (Collect's: keys indexed,
// what ports share read once) with a plain one's.
func checkIndexedFacts(t *testing.T, out string) {
	t.Helper()
	plain, err := ParseRunningConfig(out)
	if err != nil {
		return
	}
	indexed, _ := ParseRunningConfig(out)
	indexed.indexKeys()
	ports := sortedKeys(plain.Tables["PORT"])
	for range 2 { // the second round from what the first kept
		for _, port := range append(ports, "Ethernet9999") {
			want := portFacts(plain, topology.Evidence{}, port, counterSet{})
			got := portFacts(indexed, topology.Evidence{}, port, counterSet{})
			if d := cmp.Diff(want, got); d != "" {
				t.Fatalf("port %s (-plain +indexed):\n%s", port, d)
			}
		}
	}
}

func TestIndexedFactsAsPlain(t *testing.T) {
	for _, in := range diffInputs(t) {
		checkIndexedFacts(t, in)
	}
}

func FuzzIndexedFactsAsPlain(f *testing.F) {
	smallFirst(f, true, edgeDB, `{"PORT":{"E0":{}},"QUEUE":{"E0|01":{"scheduler":"a"},"E0|1":{"scheduler":"b"},"E0|x":{},"E0|y-z":{}},`+
		`"SCHEDULER":{"a":{"type":"DWRR"},"b":{"type":"STRICT"}},"BUFFER_PG":{"E0,E0|3":{"profile":"p"},"E0|3-4":{"profile":"NULL"}}}`)
	f.Fuzz(func(t *testing.T, out string) { checkIndexedFacts(t, out) })
}
