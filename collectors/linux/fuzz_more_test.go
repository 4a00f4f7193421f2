package linux

import (
	"encoding/json"
	"reflect"
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

// The scan of ip -j's links, where it answers, reads exactly what encoding/json reads.
func FuzzScanIPLinks(f *testing.F) {
	addSeeds(f, append(append(ipMinis(f), fixtureFiles(f, "ip_addr")...),
		`[{"ifname":"a","IFNAME":"b","mtu":9000}]`, `[{"ifname":"a","ifname":"b"}]`, `[{"mtu":1e3}]`, `[{"mtu":null}]`,
		`[{"ifname":"v","mtu":1500,"linkinfo":{"info_kind":"vlan","info_data":{"id":7,"protocol":"802.1Q"}}}]`,
		`[{"addr_info":[{"family":"inet","local":"10.0.0.1","x":[1,{"y":null}]},{}]}]`, `[{}, null]`, `[] x`,
		`[{"ifname":"\u0061","mtu":-0}]`,
		`[{"ſ":1,"K":2,"mtu":99999999999999999999}]`,
		"[{\"lin\u212ainfo\":{\"info_kind\":\"vlan\"},\"ifname\":\"v\",\"mtu\":1}]", // a Kelvin sign folds to k
	)...)
	f.Fuzz(func(t *testing.T, s string) {
		got, fields, ok := scanIPLinks(s)
		if !ok {
			return
		}
		var want []ipLink
		if err := json.Unmarshal([]byte(s), &want); err != nil {
			t.Fatalf("scanned %q, which encoding/json refuses: %v", s, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("scan of %q:\n got %s\nwant %s", s, dumpLinks(got), dumpLinks(want))
		}
		// The excerpt fields it keeps are those the excerpts' decoding reads.
		if wantF := decodeIPFields(s); (len(fields) != 0 || len(wantF) != 0) && !reflect.DeepEqual(fields, wantF) {
			t.Errorf("excerpt fields of %q:\n got %+v\nwant %+v", s, fields, wantF)
		}
	})
}

func dumpLinks(ls []ipLink) string {
	b, _ := json.Marshal(ls)
	return string(b)
}

// The scan of lldpcli's json0, where it answers, reads exactly what encoding/json reads.
func FuzzScanLLDPJSON0(f *testing.F) {
	addSeeds(f, append(append(jsonMinis(f, append([]string{loadTranscript(f)["lldpcli -f json0 show neighbors"].Stdout}, fixtureFiles(f, "lldpcli")...)...), fixtureFiles(f, "lldpcli")...),
		`{"lldp":[{}]}`, `{"lldp":null}`, `{}`, `{"LLDP":[]}`, `{"lldp":[{"interface":[]}]} x`,
		`{"lldp":[{"interface":[{"name":"eth0","chassis":[{"id":[{"type":"mac","value":"aa"}],"name":[{"value":"sw"}],"x":1}],`+
			`"port":[{"id":[{"type":"ifname","value":"Ethernet0"}],"descr":[{"value":"d"}],"ttl":[{"value":"120"}]}]}]}]}`,
		`{"lldp":[{"interface":[{"name":"a","name":"b"}]}]}`, `{"lldp":[{"interface":[{"Name":"a"}]}]}`,
		`{"lldp":[{"interface":[{"name":"a","port":[{"id":[{"value":null}]}]}]}]}`,
	)...)
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := scanLLDPJSON0(s)
		if !ok {
			return
		}
		var want lldpJSON0
		if err := json.Unmarshal([]byte(s), &want); err != nil {
			t.Fatalf("scanned %q, which encoding/json refuses: %v", s, err)
		}
		if !reflect.DeepEqual(got, want) {
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want)
			t.Errorf("scan of %q:\n got %s\nwant %s", s, g, w)
		}
	})
}
