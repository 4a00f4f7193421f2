package perftest

import (
	"math"
	"testing"
)

// FuzzParseBW: any input either fails or yields rows with finite, non-negative values whose
// last row is the summary. Run briefly (minimizing large inputs stalls the exec count otherwise):
// go test -run "^$" -fuzz=FuzzParseBW -fuzztime=30s -fuzzminimizetime=2s ./collectors/perftest
func FuzzParseBW(f *testing.F) {
	for _, name := range []string{
		"hostsmd/bw_server_rxe.txt", "hostsmd/bw_client_cx6dx_sweep.txt", "hostsmd/bw_server_rdmacm.txt",
		"issues/bw_client_duration_issue273.txt", "real/bw_R_client.txt", "hostsmd/lat_rxe.txt",
	} {
		f.Add(readFixture(f, name))
	}
	f.Add(hdrQoSGb + " 65536      3           5000           92.51              92.49                  0.176420\n")
	f.Add(hdrPerPort + " 65536 5000 1 1 1 1 1 1 1\n")
	f.Add(hdrMB + " 65536      664644           0.00               11728.47\t\t   0.187656\n")
	f.Fuzz(func(t *testing.T, in string) {
		res, err := ParseBW(in)
		if err != nil {
			return
		}
		if len(res.Rows) == 0 || res.Unit == "" {
			t.Fatalf("success without rows or unit: %+v", res)
		}
		for _, r := range res.Rows {
			for _, v := range []float64{r.PeakGbps, r.AvgGbps, r.MsgRateMpps} {
				if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
					t.Fatalf("bad value in %+v", r)
				}
			}
			if r.SL < -1 || r.SL > 255 {
				t.Fatalf("bad SL in %+v", r)
			}
		}
		last := res.Rows[len(res.Rows)-1]
		if res.AvgGbps != last.AvgGbps || res.PeakGbps != last.PeakGbps || res.MsgRateMpps != last.MsgRateMpps {
			t.Fatalf("summary %+v is not the last row %+v", res, last)
		}
	})
}
