package linux

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/roceaudit/roceaudit/collectors/internal/fuzzseed"
)

// get is field k as raw JSON, when the scan kept it.
func (f *ipFields) get(k string) (json.RawMessage, bool) {
	for i, key := range ipExcerptKeys {
		if key == k && f.ok[i] {
			return json.RawMessage(f.v[i]), true
		}
	}
	return nil, false
}

func ipSeeds(tb testing.TB) []string {
	tb.Helper()
	seeds := []string{loadTranscript(tb)[CmdIPAddr].Stdout, `[]`, `null`, `[null,{}]`, ` [ {"ifname" : "a\"b", "mtu":1 , "x":{"y":[1,"]}"]}} ] `,
		`[{"ifname":"a","ifname":"b"}]`, `[{"if\u006eame":"a"}]`, `[{"ifname":"a"},2]`, `[{"IFNAME":"a","link":null}]`}
	paths, _ := filepath.Glob(filepath.Join(fixtureRoot, "*", "ip_addr"))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		seeds = append(seeds, string(b))
	}
	return seeds
}

// On any valid JSON text the scan accepts, it finds the fields decoding finds; the texts it
// declines are decoded.
func checkScanMatchesDecode(t *testing.T, s string) {
	got, ok := scanIPObjects(s)
	if !ok || !json.Valid([]byte(s)) {
		return
	}
	want := decodeIPFields(s)
	if len(got) != len(want) {
		t.Fatalf("%q: scanned %d objects, decoded %d", s, len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%q object %d: scanned %+v, decoded %+v", s, i, got[i], want[i])
		}
	}
}

func TestScanIPObjectsMatchesDecode(t *testing.T) {
	for _, s := range ipSeeds(t) {
		checkScanMatchesDecode(t, s)
		if got, want := ipFieldObjects(s), decodeIPFields(s); len(got) != len(want) {
			t.Errorf("%q: ipFieldObjects gave %d objects, decoding %d", s, len(got), len(want))
		}
	}
	if _, ok := scanIPObjects(loadTranscript(t)[CmdIPAddr].Stdout); !ok {
		t.Error("the scan declined real ip output")
	}
	if _, ok := scanIPObjects(`[{"if\u006eame":"a"}]`); ok {
		t.Error("the scan accepted an escaped key")
	}
}

// go test -fuzz=FuzzScanIPObjects -fuzztime=30s ./collectors/linux
func FuzzScanIPObjects(f *testing.F) {
	addSeeds(f, append(ipMinis(f), ipSeeds(f)...)...)
	f.Fuzz(checkScanMatchesDecode)
}

// BenchmarkIPExcerpts is the eight ports' ip excerpts of the recorded 8-rail host.
func BenchmarkIPExcerpts(b *testing.B) {
	text := loadTranscript(b)[CmdIPAddr].Stdout
	names := []string{"ens1np0", "ens2np0", "ens3np0", "ens4np0", "ens5np0", "ens6np0", "ens7np0", "ens8np0"}
	b.ReportAllocs()
	for b.Loop() {
		d := &discovery{}
		d.ip.out.Stdout = text
		for _, n := range names {
			if d.ipExcerpt(n) == "" {
				b.Fatal("no excerpt for", n)
			}
		}
	}
}

// addrSeeds are addr_info values: the recorded host's and the odd shapes JSON allows.
func addrSeeds(tb testing.TB) []string {
	seeds := []string{`[]`, `null`, `{}`, `[null]`, `[{}]`, ` [ {"family" : "inet", "local":"10.0.0.1","prefixlen":24,"scope":"global","x":[1,"]"]} , null ] `,
		`[{"family":"inet","family":"inet6"}]`, `[{"f\u0061mily":"inet"}]`, `[{"scope":null,"local":{"a":"b"}}]`, `[1]`, `[{"local":"a"}`}
	for _, f := range ipFieldObjects(loadTranscript(tb)[CmdIPAddr].Stdout) {
		if v, ok := f.get("addr_info"); ok {
			seeds = append(seeds, string(v))
		}
	}
	return seeds
}

// On any valid JSON text the scan of an addr_info accepts, it gives what decoding gives.
func checkTrimAddrInfo(t *testing.T, s string) {
	if !json.Valid([]byte(s)) {
		return
	}
	if got, want := trimAddrInfo(json.RawMessage(s)), decodeAddrInfo(json.RawMessage(s)); string(got) != string(want) {
		t.Fatalf("%q: scanned %s, decoded %s", s, got, want)
	}
}

func TestTrimAddrInfoMatchesDecode(t *testing.T) {
	for _, s := range addrSeeds(t) {
		checkTrimAddrInfo(t, s)
	}
}

// go test -fuzz=FuzzTrimAddrInfo -fuzztime=30s ./collectors/linux
func FuzzTrimAddrInfo(f *testing.F) {
	var minis []string
	for _, o := range ipFieldObjects(ipMinis(f)[0]) {
		if v, ok := o.get("addr_info"); ok && len(minis) == 0 {
			minis = fuzzseed.JSONVariants(string(v), 20)
		}
	}
	addSeeds(f, append(minis, addrSeeds(f)...)...)
	f.Fuzz(checkTrimAddrInfo)
}

// trimAddrInfo is appendAddrInfo of raw alone.
func trimAddrInfo(raw json.RawMessage) json.RawMessage {
	return appendAddrInfo(nil, string(raw))
}
