package nxoscheck

import (
	"github.com/roceaudit/roceaudit/lab/nxos"
	"github.com/roceaudit/roceaudit/lab/switchstate"
)

type scenario struct {
	name string
	sw   *switchstate.Switch
}

// scenarios are the healthy leaf4 and spine1, each lab-fabric fault that lands on NX-OS alone
// and together, and settings no scenario uses yet (a generated Clos might).
func scenarios() []scenario {
	wd := nxos.Leaf4()
	wd.Port("Ethernet1/2").Watchdog[3] = false // SW-PFC-WATCHDOG

	dcbx := nxos.Leaf4()
	dcbx.Port("Ethernet1/3").PFCAuto = true // SW-DCBX: priority-flow-control mode auto
	dcbx.Port("Ethernet1/3").DCBX = true

	broken := nxos.Leaf4()
	broken.Port("Ethernet1/2").Watchdog[3] = false
	broken.Port("Ethernet1/3").PFCAuto, broken.Port("Ethernet1/3").DCBX = true, true

	v := nxos.Leaf4()
	v.Port("Ethernet1/1").TrustDSCP = false
	e2 := v.Port("Ethernet1/2")
	e2.ECN[3], e2.Strict[6] = false, false
	e2.PauseRX, e2.PauseTX, e2.Speed = true, true, 25
	e2.Counters = map[string]int64{"rx_pause": 18231, "tx_pause": 4410}
	e3 := v.Port("Ethernet1/3")
	e3.PFCRX[3], e3.PFCTX[3], e3.Watchdog[3] = false, false, false
	v.Port("Ethernet1/4").Up = false
	v.Port("Ethernet1/49").MTU = 9000
	v.Port("Ethernet1/50").DSCPToTC[26] = 1

	one := nxos.Leaf4()
	for _, p := range one.Ports[1:] {
		p.Neighbor = nil
	}
	none := nxos.Spine1()
	for _, p := range none.Ports {
		p.Neighbor = nil
	}

	return []scenario{
		{"healthy leaf4", nxos.Leaf4()},
		{"healthy spine1", nxos.Spine1()},
		{"SW-PFC-WATCHDOG leaf4 Ethernet1/2", wd},
		{"SW-DCBX leaf4 Ethernet1/3", dcbx},
		{"broken leaf4", broken},
		{"variety", v},
		{"one LLDP neighbour", one},
		{"no LLDP neighbour", none},
	}
}
