package perftest

import (
	"strings"
	"testing"
)

func TestParseJSON(t *testing.T) {
	bw, err := ParseJSON([]byte(readFixture(t, "source/bw_out.json")))
	if err != nil {
		t.Fatal(err)
	}
	if bw.Test != "RDMA_Write_BW_Test" || bw.Device != "mlx5_0" || bw.MTU != 4096 || bw.LinkType != "Ethernet" ||
		bw.GIDIndex != 3 || bw.RDMACM || bw.MsgSize != 65536 || bw.Iterations != 1866020 ||
		bw.BWPeak != 0 || !near(bw.BWAverage, 97.834112) || !near(bw.MsgRateMpps, 0.186603) || bw.Lat != nil {
		t.Errorf("bw = %+v", bw)
	}

	lat, err := ParseJSON([]byte(readFixture(t, "source/lat_out.json")))
	if err != nil {
		t.Fatal(err)
	}
	want := LatResult{TypicalUS: 2.01, P99US: 3.41, AvgUS: 2.06, MinUS: 1.87, MaxUS: 9.42, StdevUS: 0.24, P999US: 7.95, Bytes: 64, Iterations: 10000}
	if lat.Lat == nil || *lat.Lat != want || lat.Test != "RDMA_Write_Latency_Test" || lat.BWAverage != 0 {
		t.Errorf("lat = %+v (Lat %+v)", lat, lat.Lat)
	}
}

func TestParseJSONErrors(t *testing.T) {
	bw := readFixture(t, "source/bw_out.json")
	tests := []struct {
		name, in, want string
	}{
		{"not json", "Couldn't connect to 192.168.77.2:18515\n", "perftest json"},
		{"trailing comma", strings.Replace(bw, "0.186603\n", "0.186603,\n", 1), "perftest json"},
		{"no results", `{"test_info": {"test": "RDMA_Write_BW_Test"}}`, `want "test_info" and "results"`},
		{"--output=bandwidth", `{"test_info": {}, "results": {"bw_avg": 97.8}}`, "neither BW_average nor t_typical"},
		{"missing key", strings.Replace(bw, `"MsgRate": 0.186603`, `"Msg_Rate": 0.186603`, 1), "results.MsgRate is missing"},
		{"string value", strings.Replace(bw, `"BW_average": 97.834112`, `"BW_average": "97.8"`, 1), "BW_average"},
		{"negative value", strings.Replace(bw, `"BW_average": 97.834112`, `"BW_average": -1`, 1), "non-negative"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseJSON([]byte(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("ParseJSON = %+v, %v; want error containing %q", got, err, tc.want)
			}
		})
	}
}
