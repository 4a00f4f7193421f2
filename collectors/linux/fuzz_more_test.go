package linux

import (
	"strings"
	"testing"
)

// More fuzz targets: every parser of host output must survive arbitrary text (a device that
// answers garbage) with an error, never a panic, and keep its own invariants.

func FuzzParseIPAddr(f *testing.F) {
	seedFixtures(f, "ip_addr")
	f.Add(`[{"ifname":"x","mtu":-1,"addr_info":[{"local":"::1"}],"linkinfo":{"info_kind":"bond"}}]`)
	f.Fuzz(func(t *testing.T, s string) {
		nds, err := ParseIPAddr(s)
		if err != nil {
			return
		}
		for _, n := range nds {
			if n.Name == "" {
				t.Errorf("a netdev without a name: %+v", n)
			}
		}
	})
}

func FuzzParseEthtool(f *testing.F) {
	seedFixtures(f, "ethtool_a.*")
	seedFixtures(f, "ethtool_S.*")
	seedFixtures(f, "hw_counters.*")
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = ParseEthtoolPause(s)
		_, _ = ParseEthtoolStats(s)
		_, _ = ParseHwCounters(s)
	})
}

func FuzzParseECN(f *testing.F) {
	seedFixtures(f, "ecn.*")
	f.Fuzz(func(t *testing.T, s string) {
		d, _, _, err := ParseECN(s)
		if err != nil {
			return
		}
		for p := range d.NP {
			if p < 0 || p > 7 {
				t.Errorf("priority %d out of 0..7", p)
			}
		}
	})
}

func FuzzParseToSAndConfig(f *testing.F) {
	seedFixtures(f, "traffic_class.*")
	seedFixtures(f, "nccl.conf")
	seedFixtures(f, "lldpad")
	f.Add("Global tclass=106\n")
	f.Fuzz(func(t *testing.T, s string) {
		if tos, set, err := ParseTrafficClass(s); err == nil && set && (tos < 0 || tos > 255) {
			t.Errorf("ToS %d out of a byte", tos)
		}
		_, _ = ParseDefaultRoCEToS(s)
		if idx, set, err := ParseNCCLConf(s); err == nil && set && idx < 0 {
			t.Errorf("GID index %d", idx)
		}
		if active, err := ParseSystemctlActive(s); err == nil && active && !strings.Contains(s, "active") {
			t.Errorf("active without saying so: %q", s)
		}
	})
}

func FuzzParseAppSettingsAndPgrep(f *testing.F) {
	seedFixtures(f, "app_settings")
	f.Add("/etc/environment:NCCL_IB_TC=106\n/etc/profile.d/nccl.sh:export NCCL_IB_HCA=^mlx5_4\n")
	f.Add("1234\n")
	f.Fuzz(func(t *testing.T, s string) {
		if settings, err := ParseAppSettings(s); err == nil {
			for _, a := range settings {
				if a.Key == "" {
					t.Errorf("a setting without a name from %q", s)
				}
			}
		}
		_, _ = ParsePgrep(s, 0)
		_, _ = ParsePgrep(s, 1)
	})
}

func FuzzParsePFCPreventionTout(f *testing.F) {
	seedFixtures(f, "pfc_tunable.*")
	f.Add("pfc-prevention-tout: off\n")
	f.Fuzz(func(t *testing.T, s string) {
		if ms, err := ParsePFCPreventionTout(s); err == nil && ms < 0 {
			t.Errorf("timeout %d ms from %q", ms, s)
		}
	})
}
