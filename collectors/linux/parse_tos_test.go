package linux

import "testing"

func TestParseTrafficClass(t *testing.T) {
	tests := []struct {
		name string
		in   string
		tos  int
		set  bool
	}{
		{"fixture, global 106", readFixture(t, "ofed-lossless", "traffic_class.mlx5_0.1"), 106, true},
		{"fixture, unset", readFixture(t, "dual-port", "traffic_class.mlx5_1.1"), 0, false},
		{"global then per-destination rules", "Global tclass=104\nsrc_ip=0.0.0.0,dst_ip=10.0.0.0/8,tclass=96\n", 104, true},
		{"rules only", "dst_ip=10.0.0.0/8,tclass=96\n", 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tos, set, err := ParseTrafficClass(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if tos != tc.tos || set != tc.set {
				t.Errorf("got %d set=%v, want %d set=%v", tos, set, tc.tos, tc.set)
			}
		})
	}
	for _, in := range []string{"106\n", "Global tclass=256\n", "Global tclass=106\nGlobal tclass=96\n", "cat: permission denied\n"} {
		if tos, set, err := ParseTrafficClass(in); err == nil {
			t.Errorf("ParseTrafficClass(%q) = %d,%v, want an error", in, tos, set)
		}
	}
}

func TestParseDefaultRoCEToS(t *testing.T) {
	if v, err := ParseDefaultRoCEToS(readFixture(t, "ipv6-gids-no-rdma", "default_roce_tos.mlx5_2.1")); err != nil || v != 106 {
		t.Errorf("fixture: got %d, %v; want 106", v, err)
	}
	if v, err := ParseDefaultRoCEToS("0\n"); err != nil || v != 0 {
		t.Errorf("0: got %d, %v", v, err)
	}
	for _, in := range []string{"", "256", "-1", "Global tclass=106", "0x68"} {
		if v, err := ParseDefaultRoCEToS(in); err == nil {
			t.Errorf("ParseDefaultRoCEToS(%q) = %d, want an error", in, v)
		}
	}
}
