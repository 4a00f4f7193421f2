package eoscheck

import (
	"github.com/roceaudit/roceaudit/lab/eos"
	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// scenario is a state and the ports whose QoS settings differ from the shared profile, so
// they carry their own lines instead of service-profile.
type scenario struct {
	name   string
	sw     *switchstate.Switch
	inline []string
}

// scenarios are the healthy leaf3, each lab-fabric fault that lands on EOS alone and
// together, and a variety of settings no scenario uses yet (a generated Clos might).
func scenarios() []scenario {
	trust := eos.Leaf3()
	trust.Port("Ethernet2").TrustDSCP = false // SW-TRUST: trust cos

	pause := eos.Leaf3()
	pause.Port("Ethernet3").PauseRX = true // SW-PAUSE: flowcontrol receive on

	broken := eos.Leaf3()
	broken.Port("Ethernet2").TrustDSCP = false
	broken.Port("Ethernet3").PauseRX = true

	v := eos.Leaf3()
	for _, p := range v.Ports {
		p.DSCPToTC[26] = 1 // a switch-wide map that sends RoCE to a lossy class
	}
	e1 := v.Port("Ethernet1")
	e1.DCBX = true
	e1.Counters = map[string]int64{"rx_pause": 5, "tx_pause": 2, "pfc_rx_pause_prio3": 100, "pfc_rx_pause_prio4": 1, "pfc_tx_pause_prio3": 7}
	e2 := v.Port("Ethernet2")
	e2.ECN[3] = false
	e2.Strict[6] = false
	e3 := v.Port("Ethernet3")
	e3.Watchdog[3] = false
	e4 := v.Port("Ethernet4")
	e4.PFCRX[4], e4.PFCTX[4], e4.Lossless[4], e4.Watchdog[4] = true, true, true, true
	e4.Strict[2] = true
	v.Port("Ethernet49").Up = false
	e50 := v.Port("Ethernet50")
	e50.MTU, e50.PauseTX, e50.Speed = 1500, true, 25
	e50.Neighbor.MgmtIP = "10.0.0.2"

	return []scenario{
		{name: "healthy", sw: eos.Leaf3()},
		{name: "SW-TRUST leaf3 Ethernet2", sw: trust, inline: []string{"Ethernet2"}},
		{name: "SW-PAUSE leaf3 Ethernet3", sw: pause},
		{name: "broken", sw: broken, inline: []string{"Ethernet2"}},
		{name: "variety", sw: v, inline: []string{"Ethernet2", "Ethernet3", "Ethernet4"}},
	}
}
