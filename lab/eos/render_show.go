package eos

import (
	"fmt"
	"strings"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// showVersion renders `show version | json` (key set of fixtures/eos, not captured from a device).
func showVersion(sw *switchstate.Switch) string {
	v := version(sw)
	return jsonOut(struct {
		ModelName        string  `json:"modelName"`
		InternalVersion  string  `json:"internalVersion"`
		SystemMacAddress string  `json:"systemMacAddress"`
		SerialNumber     string  `json:"serialNumber"`
		MemTotal         int     `json:"memTotal"`
		BootupTimestamp  float64 `json:"bootupTimestamp"`
		MemFree          int     `json:"memFree"`
		Version          string  `json:"version"`
		Architecture     string  `json:"architecture"`
		IsIntlVersion    bool    `json:"isIntlVersion"`
		InternalBuildID  string  `json:"internalBuildId"`
		HardwareRevision string  `json:"hardwareRevision"`
	}{
		ModelName: model(sw), InternalVersion: v + "-28837868." + strings.ReplaceAll(v, ".", ""),
		SystemMacAddress: sw.BaseMAC(defaultMAC).String(), SerialNumber: "JPE" + strings.ToUpper(strings.ReplaceAll(sw.BaseMAC(defaultMAC).String()[9:], ":", "")),
		MemTotal: 8098740, BootupTimestamp: bootTime, MemFree: 5869480, Version: v, Architecture: "x86_64",
		InternalBuildID: "5a8e0b7c-2b1f-4a57-9a4e-0c3d2f7b8e11", HardwareRevision: "11.00",
	})
}

// ifCounters is the trimmed interfaceCounters of napalm's sample plus the traffic counters
// EOS keeps beside them (inOctets, outOctets, inUcastPkts, outUcastPkts).
type ifCounters struct {
	InOctets     int64 `json:"inOctets"`
	OutOctets    int64 `json:"outOctets"`
	InUcastPkts  int64 `json:"inUcastPkts"`
	OutUcastPkts int64 `json:"outUcastPkts"`
	Out          struct {
		Deferred      int64 `json:"deferredTransmissions"`
		TxPause       int64 `json:"txPause"`
		Collisions    int64 `json:"collisions"`
		LateCollision int64 `json:"lateCollisions"`
	} `json:"outputErrorsDetail"`
	In struct {
		Runt      int64 `json:"runtFrames"`
		RxPause   int64 `json:"rxPause"`
		FCS       int64 `json:"fcsErrors"`
		Alignment int64 `json:"alignmentErrors"`
		Giant     int64 `json:"giantFrames"`
		Symbol    int64 `json:"symbolErrors"`
	} `json:"inputErrorsDetail"`
}

type iface struct {
	LastStatusChange float64    `json:"lastStatusChangeTimestamp"`
	Name             string     `json:"name"`
	Status           string     `json:"interfaceStatus"`
	AutoNegotiate    string     `json:"autoNegotiate"`
	BurnedIn         string     `json:"burnedInAddress"`
	Description      string     `json:"description"`
	LoopbackMode     string     `json:"loopbackMode"`
	MTU              int        `json:"mtu"`
	Hardware         string     `json:"hardware"`
	Duplex           string     `json:"duplex"`
	Bandwidth        int64      `json:"bandwidth"`
	ForwardingModel  string     `json:"forwardingModel"`
	LineProtocol     string     `json:"lineProtocolStatus"`
	L3MtuConfigured  bool       `json:"l3MtuConfigured"`
	L2Mru            int        `json:"l2Mru"`
	Counters         ifCounters `json:"interfaceCounters"`
}

// showInterfaces renders `show interfaces | json`: every front-panel port (switchports,
// "bridged") and Management1.
func showInterfaces(sw *switchstate.Switch) string {
	all := map[string]iface{}
	for i, p := range sw.Ports {
		it := iface{LastStatusChange: linkChangeTime, Name: p.Name, Status: "connected", AutoNegotiate: "off",
			BurnedIn: sw.PortMAC(defaultMAC, i).String(), Description: neighborLabel(p), LoopbackMode: "loopbackNone",
			MTU: p.MTU, Hardware: "ethernet", Duplex: "duplexFull", Bandwidth: int64(p.Speed) * 1_000_000_000,
			ForwardingModel: "bridged", LineProtocol: "up"}
		if !p.Up {
			it.Status, it.AutoNegotiate, it.LineProtocol, it.Bandwidth = "notconnect", "unknown", "down", 0
		}
		it.Counters.Out.TxPause = counter(p, "tx_pause")
		it.Counters.In.RxPause = counter(p, "rx_pause")
		it.Counters.InOctets, it.Counters.OutOctets = counter(p, switchstate.InOctets), counter(p, switchstate.OutOctets)
		it.Counters.InUcastPkts, it.Counters.OutUcastPkts = counter(p, switchstate.InUcastPkts), counter(p, switchstate.OutUcastPkts)
		all[p.Name] = it
	}
	all["Management1"] = iface{LastStatusChange: linkChangeTime, Name: "Management1", Status: "connected",
		AutoNegotiate: "success", BurnedIn: sw.BaseMAC(defaultMAC).String(), LoopbackMode: "loopbackNone", MTU: 1500,
		Hardware: "ethernet", Duplex: "duplexFull", Bandwidth: 1_000_000_000, ForwardingModel: "routed",
		LineProtocol: "up", L3MtuConfigured: true}
	return jsonOut(struct {
		Interfaces map[string]iface `json:"interfaces"`
	}{all})
}

// flowcontrolHeader is the table head of `show interfaces flowcontrol` (arista-eosplus/pyeapi
// test/fixtures/interfaces_flowcontrol.json).
const flowcontrolHeader = "" +
	"Port        Send FlowControl  Receive FlowControl  RxPause       TxPause      \n" +
	"            admin    oper     admin    oper                                   \n" +
	"----------  -------- -------- -------- --------    ------------- -------------\n"

// showFlowcontrol renders the 802.3x table. The operational state follows the configuration
// on a link that is up and is "unknown" on one that is down.
func showFlowcontrol(sw *switchstate.Switch) string {
	var b strings.Builder
	b.WriteString(flowcontrolHeader)
	onOff := func(on bool) string {
		if on {
			return "on"
		}
		return "off"
	}
	for _, p := range sw.SortedPorts() {
		send, recv := onOff(p.PauseTX), onOff(p.PauseRX)
		sendOper, recvOper := send, recv
		if !p.Up {
			sendOper, recvOper = "unknown", "unknown"
		}
		fmt.Fprintf(&b, "%-10s  %-8s %-8s %-8s %-8s    %-13d %-13d\n", shortName(p.Name), send, sendOper, recv, recvOper,
			counter(p, "rx_pause"), counter(p, "tx_pause"))
	}
	fmt.Fprintf(&b, "%-10s  %-8s %-8s %-8s %-8s    %-13d %-13d\n", "Ma1", "desired", "off", "desired", "on", 0, 0)
	return b.String()
}

// showPFCCounters renders `show priority-flow-control counters | json` (revision 3 shape:
// frames per interface, all priorities together).
func showPFCCounters(sw *switchstate.Switch) string {
	type frames struct {
		Rx int64 `json:"rxFrames"`
		Tx int64 `json:"txFrames"`
	}
	all := map[string]frames{}
	for _, p := range sw.Ports {
		all[p.Name] = frames{Rx: pfcFrames(p, "rx"), Tx: pfcFrames(p, "tx")}
	}
	return jsonOut(struct {
		Counters map[string]frames `json:"interfaceCounters"`
	}{all})
}
