package linux

import (
	"regexp"
	"testing"
)

func TestParseEthtoolStats(t *testing.T) {
	pfc, err := ParseEthtoolStats(readFixture(t, "ofed-lossless", "ethtool_S.ens1f0np0"))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]int64{"rx_prio3_packets": 23950123, "rx_prio3_pause": 0, "rx_discards_phy": 0, "tx_pause_storm_error_events": 0} {
		if got, ok := pfc[name]; !ok || got != want {
			t.Errorf("%s = %d (present %v), want %d", name, got, ok, want)
		}
	}
	// per-prio pause counters exist only for PFC priorities; global ones only with link pause
	if _, ok := pfc["rx_global_pause"]; ok {
		t.Error("rx_global_pause present on a PFC port")
	}
	global, err := ParseEthtoolStats(readFixture(t, "dual-port", "ethtool_S.ens1f1np1"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := global["rx_global_pause"]; !ok {
		t.Error("rx_global_pause missing on a link-pause port")
	}
	if _, ok := global["rx_prio3_pause"]; ok {
		t.Error("rx_prio3_pause present without PFC")
	}

	// an old mlx5 name carried a trailing space inside the name
	odd, err := ParseEthtoolStats("NIC statistics:\n     tx_pause_storm_warning_events : 3\n     big: 9223372036854775807\n")
	if err != nil || odd["tx_pause_storm_warning_events"] != 3 || odd["big"] != 9223372036854775807 {
		t.Errorf("got %v, %v", odd, err)
	}

	for _, in := range []string{"", "no stats available\n", "NIC statistics:\n     rx_packets: lots\n", "NIC statistics:\n     rx_packets\n"} {
		if got, err := ParseEthtoolStats(in); err == nil {
			t.Errorf("ParseEthtoolStats(%q) = %v, want an error", in, got)
		}
	}
}

func TestParseHwCounters(t *testing.T) {
	got, err := ParseHwCounters(readFixture(t, "dual-port", "hw_counters.mlx5_1.1"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 31 {
		t.Errorf("%d counters, want 31 (32 files minus lifespan)", len(got))
	}
	for name, want := range map[string]int64{"out_of_sequence": 211, "packet_seq_err": 198, "rp_cnp_ignored": 0} {
		if got[name] != want {
			t.Errorf("%s = %d, want %d", name, got[name], want)
		}
	}
	if _, ok := got["lifespan"]; ok {
		t.Error("lifespan is the cache time, not a counter")
	}
	for _, in := range []string{"", "/sys/class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent:x\n", "np_cnp_sent:1\n",
		"/sys/class/infiniband/mlx5_0/ports/1/counters/port_xmit_data:1\n"} {
		if got, err := ParseHwCounters(in); err == nil {
			t.Errorf("ParseHwCounters(%q) = %v, want an error", in, got)
		}
	}
}

// The hand-written hw_counters path test accepts exactly what the pattern it replaced did.
func TestIsHwCounterPathMatchesThePattern(t *testing.T) {
	pattern := regexp.MustCompile(`^/sys/class/infiniband/[^/]+/ports/\d+/hw_counters/[^/:]+$`)
	for _, p := range []string{
		"/sys/class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent",
		"/sys/class/infiniband/mlx5_bond_0/ports/12/hw_counters/out_of_sequence",
		"/sys/class/infiniband//ports/1/hw_counters/x",
		"/sys/class/infiniband/mlx5_0/ports//hw_counters/x",
		"/sys/class/infiniband/mlx5_0/ports/1a/hw_counters/x",
		"/sys/class/infiniband/mlx5_0/ports/1/hw_counters/",
		"/sys/class/infiniband/mlx5_0/ports/1/hw_counters/a/b",
		"/sys/class/infiniband/mlx5_0/ports/1/counters/x",
		"/sys/class/infiniband/a/b/ports/1/hw_counters/x",
		"/sys/class/infiniband/mlx5_0/ports/1/2/hw_counters/x",
		"sys/class/infiniband/mlx5_0/ports/1/hw_counters/x",
		"/sys/class/infiniband/mlx5_0/ports/1/hw_counters/x:y",
		"/sys/class/infiniband/mlx5_0/ports/1/hw_counters/lifespan",
		"",
	} {
		if got, want := isHwCounterPath(p), pattern.MatchString(p); got != want {
			t.Errorf("isHwCounterPath(%q) = %v, the pattern says %v", p, got, want)
		}
	}
}

// isHwCounterPath matches the path of a `grep -H` line over hw_counters.
func isHwCounterPath(p string) bool {
	_, _, ok := splitHwCounterPath(p)
	return ok
}
