package perftest

import (
	"math"
	"testing"
)

// The other perftest readers: latency, JSON, ss and the failure diagnosis never panic.

func FuzzParseLat(f *testing.F) {
	f.Add(readFixture(f, "hostsmd/lat_rxe.txt"))
	f.Fuzz(func(t *testing.T, in string) {
		res, err := ParseLat(in)
		if err != nil {
			return
		}
		for _, v := range []float64{res.TypicalUS, res.P99US} {
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				t.Fatalf("latency %v from %q", v, in)
			}
		}
	})
}

func FuzzParseJSON(f *testing.F) {
	f.Add(`{"results": {"BW_average": 92.5, "BW_peak": 93.1, "MsgRate": 0.17}}`)
	f.Fuzz(func(t *testing.T, in string) {
		_, _ = ParseJSON([]byte(in))
	})
}

func FuzzParsePortInUseAndDiagnose(f *testing.F) {
	for _, name := range []string{"local/ss_free.txt", "local/ss_listen_v4.txt", "local/ss_listen_v6.txt",
		"hostsmd/err_completion_a.txt", "hostsmd/err_connect.txt", "hostsmd/err_rtr.txt", "issues/err_ipv6_oob_pr129.txt"} {
		f.Add(readFixture(f, name), 1)
	}
	f.Fuzz(func(t *testing.T, in string, exit int) {
		_, _ = ParsePortInUse(in)
		if exit != 0 && Diagnose(in, in, exit) == nil {
			t.Errorf("exit %d diagnosed as success", exit)
		}
	})
}
