package lab

import (
	"fmt"
	"time"

	"github.com/roceaudit/roceaudit/lab/eos"
	"github.com/roceaudit/roceaudit/lab/linuxhost"
	"github.com/roceaudit/roceaudit/lab/nxos"
	"github.com/roceaudit/roceaudit/lab/sonic"
	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// Vendor-design scenarios: a small fabric of one NOS whose switches carry that vendor's
// published RoCE configuration (fixtures/README.md "Vendor designs" cites each source), with
// healthy hosts on the recipe, so only the switch design is under test.
const (
	ScenarioNVIDIACumulus = "nvidia-cumulus"
	ScenarioSONiCDefault  = "sonic-default"
	ScenarioAristaEOS     = "arista-eos"
	ScenarioCiscoAIML     = "cisco-aiml"
)

// vendorScenario is one vendor design: its NOS, the switch models, and what the design does
// to a healthy switch.
type vendorScenario struct {
	platform, model, version string
	design                   func(sw *switchstate.Switch)
}

var vendorScenarios = map[string]vendorScenario{
	ScenarioNVIDIACumulus: {"cumulus", "MSN3700", "5.9.1", nvidiaRoCE},
	ScenarioSONiCDefault:  {"sonic", "Mellanox-SN4600C", "SONiC.202405", sonicDefault},
	ScenarioAristaEOS:     {"eos", "DCS-7280CR3-32P4", "4.31.2F", aristaRoCE},
	ScenarioCiscoAIML:     {"nxos", "N9K-C93180YC-FX", "10.3(4a)", ciscoAIML},
}

// vendorScenarioNames are the vendor scenarios in the order Scenarios lists them.
var vendorScenarioNames = []string{ScenarioNVIDIACumulus, ScenarioSONiCDefault, ScenarioAristaEOS, ScenarioCiscoAIML}

// vendorHosts is the number of GPU hosts of a vendor fabric.
const vendorHosts = 4

// fabric wires the vendor fabric: leaf1 and leaf2 (one per host rail), spine1; host n's
// rail-0 port on leaf1's n-th port, its rail-1 port on leaf2's, each leaf's last port to
// spine1.
func (v vendorScenario) fabric() fabric {
	port := platformProfiles[v.platform].port
	mtu := platformProfiles[v.platform].mtu
	spec := func(name string, n int) switchSpec {
		s := switchSpec{name: name, platform: v.platform, model: v.model, version: v.version, mtu: mtu}
		for i := range n {
			s.ports = append(s.ports, port(i))
		}
		return s
	}
	f := fabric{switches: []switchSpec{spec("leaf1", vendorHosts+1), spec("leaf2", vendorHosts+1), spec("spine1", 2)}}
	for n := 1; n <= vendorHosts; n++ {
		host := fmt.Sprintf("gpu%02d", n)
		f.cables = append(f.cables,
			[2]end{{host, linuxhost.Port0}, {"leaf1", port(n - 1)}},
			[2]end{{host, linuxhost.Port1}, {"leaf2", port(n - 1)}})
	}
	for l, leaf := range f.switches[:2] {
		f.cables = append(f.cables, [2]end{{leaf.name, port(vendorHosts)}, {"spine1", port(l)}})
	}
	return f
}

// build is the scenario's devices: healthy hosts, then the switches with the design applied.
func (v vendorScenario) build(latency time.Duration) []*device {
	var hosts []*device
	byName := map[string]*linuxhost.Host{}
	for n := 1; n <= vendorHosts; n++ {
		d := gpu(n)
		hosts = append(hosts, d)
		byName[d.name] = d.host
	}
	f := v.fabric()
	states := newSwitches(f, byName)
	for _, s := range f.switches {
		v.design(states[s.name])
	}
	return append(hosts, switchDevices(f, states, latency)...)
}

// vendorPaths: one pair on leaf1 alone, one from rail 1 (leaf2) through spine1 to rail 0.
func vendorPaths() [][2]string {
	return [][2]string{
		{"gpu01:" + linuxhost.Port0, "gpu03:" + linuxhost.Port0},
		{"gpu02:" + linuxhost.Port1, "gpu04:" + linuxhost.Port0},
	}
}

func vendorDeclaredLinks(v vendorScenario) [][2]string {
	return [][2]string{{"gpu01:" + linuxhost.Port0, "leaf1:" + platformProfiles[v.platform].port(0)}}
}

// eachPort applies fn to every port of sw.
func eachPort(sw *switchstate.Switch, fn func(p *switchstate.Port)) {
	for _, p := range sw.Ports {
		fn(p)
	}
}

// nvidiaRoCE is `nv set qos roce` (lossless) as Cumulus 5.x applies it: what the healthy
// Cumulus port already is (trust pcp,dscp, DSCP 24-31 -> SP3 and 48-55 -> SP6, PFC on 3, TC 6
// strict, TC 3 DWRR 50%), plus ECN on traffic class 0 as well as 3, and the PFC watchdog left
// at its default, disable (a separate per-port knob the profile does not set).
func nvidiaRoCE(sw *switchstate.Switch) {
	eachPort(sw, func(p *switchstate.Port) {
		p.ECN[0] = true
		p.Watchdog = [8]bool{}
	})
}

// sonicDefault is SONiC's default QoS (qos_config.j2, buffers_config.j2): the AZURE DSCP map
// (3 -> 3, 4 -> 4, 46 -> 5, 48 -> 6, 8 -> 0, 5 -> 2, others 1), PFC and the lossless buffer on 3
// and 4, WRED AZURE_LOSSLESS on queues 3 and 4, scheduler.0 (DWRR 14) on queues 0-2, 5, 6
// and scheduler.1 (DWRR 15) on 3, 4. leaf1 and spine1 use the traditional buffer model with
// the watchdog started (default_pfcwd_status enable); leaf2 the dynamic model with the
// watchdog status disable, as the dynamic-model CONFIG_DB of sonic-utilities' db_migrator
// tests has it.
func sonicDefault(sw *switchstate.Switch) {
	sw.Design = sonic.DesignDefault
	dynamic := sw.Name == "leaf2"
	if dynamic {
		sw.BufferModel = "dynamic"
	}
	eachPort(sw, func(p *switchstate.Port) {
		p.DSCPToTC = sonic.StockDSCPMap()
		lossless := [8]bool{3: true, 4: true}
		p.PFCRX, p.PFCTX, p.Lossless, p.ECN = lossless, lossless, lossless, lossless
		p.Watchdog = lossless
		if dynamic {
			p.Watchdog = [8]bool{}
		}
		p.Strict = [8]bool{}
		p.Weight = [8]int{14, 14, 14, 15, 15, 14, 14, 0}
		// buffers_config.j2's torrouter_server cable length; the headroom stays sized for more.
		p.CableM, p.Headroom.CableM = 5, 5
	})
}

// aristaRoCE is the EOS RoCE profile: `qos map dscp 26 to traffic-class 3` and `48 to 6` over
// the EOS default map, PFC on with priority 3 no-drop and the pause watchdog, ECN on
// uc-tx-queue 3, uc-tx-queue 6 strict, queues 1 and 3 round-robin at 5% and 95%.
func aristaRoCE(sw *switchstate.Switch) {
	sw.Design = eos.DesignRoCE
	eachPort(sw, func(p *switchstate.Port) {
		p.DSCPToTC = eos.DefaultDSCPMap()
		p.DSCPToTC[switchstate.RoCEDSCP], p.DSCPToTC[switchstate.CNPDSCP] = 3, 6
		p.Weight = [8]int{1: 5, 3: 95}
	})
}

// ciscoAIML is Cisco's AI/ML template: DSCP 24-31 -> qos-group 3 (class ROCEv2), CNP DSCP 48
// -> qos-group 7 (class CNP), everything else qos-group 0; pause pfc-cos 3 with mode on and
// the watchdog; ECN on queue 3; queue 7 priority level 1; queues 3 and default at 50%
// remaining bandwidth, the others 0.
func ciscoAIML(sw *switchstate.Switch) {
	sw.Design = nxos.DesignAIML
	eachPort(sw, func(p *switchstate.Port) {
		p.DSCPToTC = [64]int{}
		for d := 24; d <= 31; d++ {
			p.DSCPToTC[d] = 3
		}
		p.DSCPToTC[switchstate.CNPDSCP] = 7
		p.Strict = [8]bool{7: true}
		p.Weight = [8]int{0: 50, 3: 50}
	})
}
