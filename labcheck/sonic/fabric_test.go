package soniccheck

import (
	"fmt"

	"github.com/roceaudit/roceaudit/lab/sonic"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// hostNeighbor is a lab host port as stock lldpd announces it: system name = host, port ID =
// the netdev's MAC (subtype mac), port description = netdev, chassis ID = MAC.
func hostNeighbor(n int, netdev string) *switchstate.Neighbor {
	mac := fmt.Sprintf("0c:42:a1:6b:%02x:4c", n)
	return &switchstate.Neighbor{SystemName: fmt.Sprintf("gpu%02d", n), PortID: mac, PortDescr: netdev, ChassisID: mac}
}

func switchNeighbor(name, port string) *switchstate.Neighbor {
	return &switchstate.Neighbor{SystemName: name, PortID: port, PortDescr: port, ChassisID: "98:03:9b:10:05:00"}
}

// leaf1 is the SONiC leaf of the lab fabric (lab/fabric.go): Ethernet0..12 to gpu01..gpu04 ens1f0np0,
// Ethernet48 to spine1 Ethernet1/1, Ethernet52 to spine2 Ethernet0.
func leaf1() *switchstate.Switch {
	sw := sonic.NewState("leaf1", "98:03:9b:10:01:00", "Ethernet0", "Ethernet4", "Ethernet8", "Ethernet12", "Ethernet48", "Ethernet52")
	for i := 0; i < 4; i++ {
		sw.Port(fmt.Sprintf("Ethernet%d", 4*i)).Neighbor = hostNeighbor(i+1, "ens1f0np0")
	}
	sw.Port("Ethernet48").Neighbor = switchNeighbor("spine1", "Ethernet1/1")
	sw.Port("Ethernet52").Neighbor = switchNeighbor("spine2", "Ethernet0")
	return sw
}

// spine2 is the SONiC spine: Ethernet0..12 to leaf1..leaf4.
func spine2() *switchstate.Switch {
	sw := sonic.NewState("spine2", "98:03:9b:10:06:00", "Ethernet0", "Ethernet4", "Ethernet8", "Ethernet12")
	sw.Model = "Mellanox-SN4700"
	sw.Port("Ethernet0").Neighbor = switchNeighbor("leaf1", "Ethernet52")
	sw.Port("Ethernet4").Neighbor = switchNeighbor("leaf2", "swp52")
	sw.Port("Ethernet8").Neighbor = switchNeighbor("leaf3", "Ethernet50")
	sw.Port("Ethernet12").Neighbor = switchNeighbor("leaf4", "Ethernet1/50")
	return sw
}

type scenario struct {
	name string
	sw   *switchstate.Switch
}

// scenarios are the healthy SONiC switches, each lab-fabric fault that lands on SONiC alone
// and all of them together, and settings no scenario uses yet (a generated Clos might).
func scenarios() []scenario {
	faults := []struct {
		name  string
		sw    func() *switchstate.Switch
		port  string
		apply func(p *switchstate.Port)
	}{
		{"SW-DSCP-MAP leaf1 Ethernet4", leaf1, "Ethernet4", func(p *switchstate.Port) { p.DSCPToTC[26] = 1 }},
		{"SW-PFC leaf1 Ethernet8", leaf1, "Ethernet8", func(p *switchstate.Port) { p.PFCRX[4], p.PFCTX[4] = true, true }},
		{"SW-ECN leaf1 Ethernet12", leaf1, "Ethernet12", func(p *switchstate.Port) { p.ECN[3] = false }},
		{"SW-CNP-QUEUE spine2 Ethernet0", spine2, "Ethernet0", func(p *switchstate.Port) { p.Strict[6] = false }},
		{"SW-BUFFER spine2 Ethernet4", spine2, "Ethernet4", func(p *switchstate.Port) { p.Lossless[3] = false }},
		{"SW-HEADROOM spine2 Ethernet12", spine2, "Ethernet12", func(p *switchstate.Port) { p.CableM = 300 }},
		{"SW-ECN-PFC-ORDER leaf1 Ethernet48", leaf1, "Ethernet48", func(p *switchstate.Port) { p.ECNMin, p.ECNMax = 2097152, 4194304 }},
	}
	out := []scenario{{"healthy leaf1", leaf1()}, {"healthy spine2", spine2()}}
	brokenLeaf, brokenSpine := leaf1(), spine2()
	for _, f := range faults {
		sw := f.sw()
		f.apply(sw.Port(f.port))
		out = append(out, scenario{f.name, sw})
		if sw.Name == "leaf1" {
			f.apply(brokenLeaf.Port(f.port))
		} else {
			f.apply(brokenSpine.Port(f.port))
		}
	}
	out = append(out, scenario{"broken leaf1", brokenLeaf}, scenario{"broken spine2", brokenSpine})

	v := leaf1()
	e0 := v.Port("Ethernet0")
	e0.TrustDSCP = false
	e0.Counters = map[string]int64{"pfc_rx_pause_prio3": 1974230000000, "pfc_tx_pause_prio3": 7,
		"queue3_tx_packets": 123456, "queue3_tx_bytes": 987654321, "queue1_drops": 12, "queue1_drop_bytes": 18000}
	e4 := v.Port("Ethernet4")
	e4.DSCPToTC = sonic.StockDSCPMap() // bound to SONiC's stock map
	e4.PFCRX = [8]bool{true, true, true, true, true, true, true, true}
	e8 := v.Port("Ethernet8")
	e8.Watchdog = [8]bool{}
	e8.DSCPToTC[26] = 1 // the same map as Ethernet12: one named map for both
	e12 := v.Port("Ethernet12")
	e12.DSCPToTC[26] = 1
	e12.ECN[0], e12.Strict[7], e12.Lossless[4], e12.PFCRX[4], e12.PFCTX[4], e12.Watchdog[4] = true, true, true, true, true, true
	e48 := v.Port("Ethernet48")
	e48.Up, e48.MTU, e48.Speed = false, 1500, 400
	e52 := v.Port("Ethernet52")
	e52.PFCRX, e52.PFCTX, e52.Watchdog, e52.Lossless = [8]bool{}, [8]bool{}, [8]bool{}, [8]bool{}
	e52.Neighbor.PortDescr = ""
	out = append(out, scenario{"variety", v})
	return out
}
