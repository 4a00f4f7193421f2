package perftest

import (
	"strings"
	"testing"
)

// RESULT_FMT_LAT and REPORT_FMT_LAT of perftest src/perftest_parameters.h.
const hdrLat = " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] \n"

func TestParseLat(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want LatResult
	}{
		{"public sample (rxe)", readFixture(t, "hostsmd/lat_rxe.txt"),
			LatResult{TypicalUS: 193.75, P99US: 219.13, AvgUS: 193.75, MinUS: 185.81, MaxUS: 219.13, StdevUS: 7.00, P999US: 219.13, Bytes: 64, Iterations: 5}},
		{"REPORT_FMT_LAT tabs, whole run", dashes + "                    RDMA_Write Latency Test\n" + dashes + hdrLat +
			" 64      10000          1.87           9.42         2.01     \t       2.06        \t0.24   \t\t3.41    \t\t7.95   \n" + dashes,
			LatResult{TypicalUS: 2.01, P99US: 3.41, AvgUS: 2.06, MinUS: 1.87, MaxUS: 9.42, StdevUS: 0.24, P999US: 7.95, Bytes: 64, Iterations: 10000}},
		{"CPU_Util column", strings.TrimSuffix(hdrLat, "\n") + "    CPU_Util[%]\n" +
			" 64      10000          1.87           9.42         2.01     \t       2.06        \t0.24   \t\t3.41    \t\t7.95   \t    12.50\n",
			LatResult{TypicalUS: 2.01, P99US: 3.41, AvgUS: 2.06, MinUS: 1.87, MaxUS: 9.42, StdevUS: 0.24, P999US: 7.95, Bytes: 64, Iterations: 10000}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseLat(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestParseLatErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", "no latency table"},
		{"bandwidth output", readFixture(t, "hostsmd/bw_server_rxe.txt"), "no latency table"},
		{"captured GID error", readFixture(t, "real/bw_v1_client.txt"), "no latency table"},
		{"duration mode (RESULT_FMT_LAT_DUR)", " #bytes        #iterations       t_avg[usec]    tps average\n 64       3571428            1.40           357142.86\n", "duration mode"},
		{"pre-2018 five columns", " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]\n 2       1000          0.84           4.52         0.87   \n", "older than 2018"},
		{"cycles", " #bytes #iterations    t_min[cycles]    t_max[cycles]  t_typical[cycles]    t_avg[cycles]    t_stdev[cycles]   99% percentile[cycles]   99.9% percentile[cycles] \n", "cycles"},
		{"header, no row", hdrLat + dashes, "no result row"},
		{"short row", hdrLat + " 64      10000          1.87           9.42         2.01\n", "no result row"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseLat(tc.in)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("ParseLat = %+v, %v; want error containing %q", got, err, tc.want)
			}
		})
	}
}
