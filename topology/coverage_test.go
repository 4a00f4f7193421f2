package topology

import (
	"slices"
	"strings"
	"testing"
)

func twoSpines() [][]Hop {
	return [][]Hop{
		{{Device: "leaf1", InPort: "Ethernet0", OutPort: "Ethernet48"}, {Device: "spine1", InPort: "Ethernet1/1", OutPort: "Ethernet1/3"}, {Device: "leaf3", InPort: "Ethernet49", OutPort: "Ethernet1"}},
		{{Device: "leaf1", InPort: "Ethernet0", OutPort: "Ethernet52"}, {Device: "spine2", InPort: "Ethernet0", OutPort: "Ethernet8"}, {Device: "leaf3", InPort: "Ethernet50", OutPort: "Ethernet1"}},
	}
}

func hop(dev, port string, kv ...any) HopCounters {
	d := map[string]int64{}
	for i := 0; i < len(kv); i += 2 {
		d[kv[i].(string)] = int64(kv[i+1].(int))
	}
	return HopCounters{Device: dev, Interface: port, CounterDeltas: d}
}

// The member apart-ports exclude the shared ones; the member whose own ports moved the
// sender's volume carried it, in bytes or (SONiC) packets; no traffic counter is an error.
func TestCoverageAttribute(t *testing.T) {
	c := NewCoverage(twoSpines(), true)
	if c.Members[0].Via != "spine1" || slices.Contains(c.Members[0].Ports, "leaf1:Ethernet0 in") || len(c.Members[0].Ports) != 4 {
		t.Fatalf("member 1 %+v", c.Members[0])
	}
	x := Transfer{From: Endpoint{Device: "gpu01", Interface: "ens1f0np0"}, Hops: []HopCounters{
		hop("gpu01", "ens1f0np0", "tx_bytes_phy", 1000, "tx_packets_phy", 10),
		hop("leaf1", "Ethernet48", "tx_packets", 10), hop("leaf1", "Ethernet52", "tx_packets", 0),
		hop("spine1", "Ethernet1/1", "rx_bytes", 1000), hop("spine1", "Ethernet1/3", "tx_bytes", 1000),
		hop("spine2", "Ethernet0", "rx_bytes", 3), hop("spine2", "Ethernet8", "tx_bytes", 3),
		hop("leaf3", "Ethernet49", "rx_bytes", 1000), hop("leaf3", "Ethernet50", "rx_bytes", 0),
	}}
	got, err := c.Attribute(twoSpines(), x)
	if err != nil || !slices.Equal(got, []int{0}) || !c.Members[0].Carried || c.Members[1].Carried {
		t.Fatalf("attribute: %v %v %+v", got, err, c.Members)
	}
	if m := c.Missing(); len(m) != 1 || m[0].Name() != "path 2 via spine2" {
		t.Errorf("missing %+v", m)
	}
	x.Hops = []HopCounters{hop("gpu01", "ens1f0np0", "tx_bytes_phy", 1000), hop("spine1", "Ethernet1/1", "queue3_drops", 0)}
	if _, err := c.Attribute(twoSpines(), x); err == nil || !strings.Contains(err.Error(), "no traffic counter") {
		t.Errorf("no traffic counters: %v", err)
	}
	one := NewCoverage(twoSpines()[:1], false)
	if got, err := one.Attribute(twoSpines()[:1], Transfer{}); err != nil || !slices.Equal(got, []int{0}) || len(one.Missing()) != 0 {
		t.Errorf("one member: %v %v %+v", got, err, one.Members)
	}
	if got := one.Members[0].Name(); got != "path 1 via leaf1, spine1, leaf3" {
		t.Errorf("the only member is named %q, want it by the switches it crosses", got)
	}
}
