package topology

import (
	"strings"
	"testing"
)

func TestResolveEndpoint(t *testing.T) {
	s := &Snapshot{Devices: []*Device{
		{Name: "gpu01", Role: RoleHost, Reachable: true, Host: &HostFacts{Ports: []*HostPort{{
			Netdev: "ens1f0np0",
			Link:   Known(Netdev{Name: "ens1f0np0", Addresses: []string{"10.1.0.1", "2001:db8::1"}}, Evidence{}),
			Uppers: []Netdev{{Name: "ens1f0np0.100", Addresses: []string{"10.100.0.1"}}},
		}}}},
		{Name: "leaf1", Role: RoleSwitch},
	}}
	for in, want := range map[string]string{
		"gpu01":           "gpu01",
		"gpu01:ens1f0np0": "gpu01:ens1f0np0",
		"10.1.0.1":        "gpu01:ens1f0np0",
		"2001:db8::1":     "gpu01:ens1f0np0",
		"10.100.0.1":      "gpu01:ens1f0np0", // a VLAN address resolves to the RDMA netdev under it
	} {
		got, err := ResolveEndpoint(s, in)
		if err != nil || got.String() != want {
			t.Errorf("%s -> %v %v, want %s", in, got, err, want)
		}
	}
	for in, want := range map[string]string{"nosuch": "no device", "leaf1": "is a switch", "10.9.9.9": "no audited host port"} {
		if _, err := ResolveEndpoint(s, in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
}

func TestNormalizePortAndLLDPLinks(t *testing.T) {
	for in, want := range map[string]string{"Ethernet1/1": "ethernet1/1", "Et1/1": "ethernet1/1", "eth1/1": "ethernet1/1", "swp1": "swp1", "Ethernet0": "ethernet0"} {
		if got := NormalizePort(in); got != want {
			t.Errorf("%s -> %s", in, got)
		}
	}
	s := &Snapshot{Devices: []*Device{
		{Name: "gpu01", Role: RoleHost, Host: &HostFacts{Ports: []*HostPort{{Netdev: "ens1f0np0"}}}},
		{Name: "leaf1", Role: RoleSwitch, Switch: &SwitchFacts{Ports: []*SwitchPort{{Name: "Ethernet1/1"}, {Name: "Ethernet1/49"}},
			LLDP: Known([]LLDPNeighbor{
				{LocalPort: "Ethernet1/1", SystemName: "gpu01.example.net", PortID: "0c:42:a1:00:00:01", PortDescr: "ens1f0np0"},
				{LocalPort: "Ethernet1/49", SystemName: "spine1", PortID: "Et3"},
				{LocalPort: "Ethernet1/50", SystemName: "not-in-inventory", PortID: "Ethernet1"},
			}, Evidence{})}},
		{Name: "spine1", Role: RoleSwitch, Switch: &SwitchFacts{Ports: []*SwitchPort{{Name: "Ethernet3"}},
			LLDP: Known([]LLDPNeighbor{{LocalPort: "Ethernet3", SystemName: "leaf1", PortID: "Ethernet1/49"}}, Evidence{})}},
	}}
	links := ResolveLinks(s)
	var got []string
	for _, l := range links {
		got = append(got, l.A.String()+"="+l.B.String()+"/"+l.Source)
	}
	want := "leaf1:Ethernet1/1=gpu01:ens1f0np0/lldp leaf1:Ethernet1/49=spine1:Ethernet3/lldp"
	if strings.Join(got, " ") != want {
		t.Errorf("links %v\nwant %s (seen from both ends, kept once)", got, want)
	}
}
