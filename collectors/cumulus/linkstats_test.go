package cumulus

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The NVUE API's link stats sample (raw numbers) and the text form (bytes humanised, read back
// to the unit step) give the same four counters, the text's bytes within 0.01 MB.
func TestParseLinkStats(t *testing.T) {
	js, err := ParseLinkStatsJSON(verbatim(t, "link_stats_api.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{"rx_bytes": 293771538, "rx_packets": 2321737, "tx_bytes": 366068936, "tx_packets": 3536629}
	if d := cmp.Diff(want, js); d != "" {
		t.Errorf("JSON (-want +got):\n%s", d)
	}
	txt, err := ParseLinkStats(scenario(t, "broken", "nv show interface swp1 link stats"))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range want {
		if d := txt[k] - v; d < -5243 || d > 5243 {
			t.Errorf("text %s = %d, want %d within 0.005 MB", k, txt[k], v)
		}
	}
	for _, bad := range []string{`{"in-bytes": -1}`, `{"carrier-transitions": 6}`, `[1]`} {
		if _, err := ParseLinkStatsJSON(bad); err == nil {
			t.Errorf("%s parsed", bad)
		}
	}
	if _, err := ParseLinkStats("x  operational\n-  -----------\nin-bytes  lots\n"); err == nil {
		t.Error("a non-number in-bytes parsed")
	}
}
