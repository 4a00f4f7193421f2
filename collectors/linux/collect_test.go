package linux

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// Facts are compared on value, Known and command; errors and excerpts are asserted apart.
var factOpts = []cmp.Option{
	cmpopts.IgnoreFields(topology.Evidence{}, "Excerpt", "Error"),
	cmpopts.IgnoreFields(topology.HostPort{}, "Counters"),
	cmpopts.EquateEmpty(),
}

func known[T any](v T, cmd string) topology.Fact[T] {
	return topology.Known(v, topology.Evidence{Command: cmd})
}

func unknown[T any](cmd string) topology.Fact[T] {
	return topology.Unknown[T](topology.Evidence{Command: cmd})
}

func scenarioGIDs(t *testing.T, scenario string, dp DevPort) []topology.GID {
	t.Helper()
	all, err := ParseSysfsGIDs(readFixture(t, scenario, "gids"))
	if err != nil {
		t.Fatal(err)
	}
	return all[dp]
}

func scenarioNetdev(t *testing.T, scenario, name string) topology.Netdev {
	t.Helper()
	nds, err := ParseIPAddr(readFixture(t, scenario, "ip_addr"))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range nds {
		if n.Name == name {
			return n
		}
	}
	t.Fatalf("%s: no netdev %s", scenario, name)
	return topology.Netdev{}
}

func ecnCmd(ifname string) string {
	return strings.ReplaceAll(CmdECN, "{if}", ifname)
}

func errContains(t *testing.T, what string, src topology.Evidence, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(src.Error, w) {
			t.Errorf("%s error %q does not mention %q", what, src.Error, w)
		}
	}
}

func noError(t *testing.T, p *topology.HostPort) {
	t.Helper()
	for name, src := range map[string]topology.Evidence{"Link": p.Link.Source, "State": p.State.Source, "GIDs": p.GIDs.Source,
		"QoS": p.QoS.Source, "Pause": p.Pause.Source, "DCBX": p.DCBX.Source, "Counters": p.Counters.Source} {
		if src.Error != "" {
			t.Errorf("%s %s: unexpected error %q", p.Netdev, name, src.Error)
		}
	}
}

var active100 = topology.RDMAPort{State: "PORT_ACTIVE", PhysState: "LINK_UP", LinkLayer: "Ethernet", MaxMTU: 4096, ActiveMTU: 4096, SpeedGbps: 100}

func TestCollectOFEDLossless(t *testing.T) {
	const s = "ofed-lossless"
	gidIndex := 3
	dev, err := collectScenario(t, newFakeRunner(s), inventory.DeviceSpec{Name: "gpu01", GIDIndex: &gidIndex})
	if err != nil {
		t.Fatal(err)
	}
	h := dev.Host
	if d := cmp.Diff(known(false, CmdLLDPAD), h.LLDPAgent, factOpts...); d != "" {
		t.Errorf("LLDPAgent (-want +got):\n%s", d)
	}
	if d := cmp.Diff(known(3, CmdNCCLConf), h.NCCLGIDIndex, factOpts...); d != "" {
		t.Errorf("NCCLGIDIndex (-want +got):\n%s", d)
	}
	want := []*topology.HostPort{{
		Netdev: "ens1f0np0", RDMADevice: "mlx5_0", RDMAPort: 1,
		Link:   known(scenarioNetdev(t, s, "ens1f0np0"), CmdIPAddr),
		Uppers: []topology.Netdev{scenarioNetdev(t, s, "ens1f0np0.100")},
		State:  known(active100, CmdIbvDevinfo),
		GIDs:   known(scenarioGIDs(t, s, DevPort{"mlx5_0", 1}), CmdGIDs),
		QoS: known(topology.HostQoS{Tool: "mlnx_qos", Trust: "dscp", DSCPToPrio: defaultDSCPMap(), PFC: pfc3, DCBXMode: "os", CableLenM: 7,
			TCTSA: vendorTCs(), PrioTC: mlx5PrioTC()}, "mlnx_qos -i ens1f0np0"),
		Pause: known(topology.Pause{}, "ethtool -a ens1f0np0"),
		DCQCN: known(topology.DCQCN{NP: allPrios(true), RP: allPrios(true)}, ecnCmd("ens1f0np0")),
		CNP:   known(topology.CNP{DSCP: 48, Priority: 6, HasPrio: true}, ecnCmd("ens1f0np0")),
		ToS:   known(topology.ToS{Value: 106, Set: true, From: "traffic_class"}, "cat /sys/class/infiniband/mlx5_0/tc/1/traffic_class"),
		DCBX: known(topology.DCBX{Mode: recipe.DCBXStatic, Detail: "OS controlled, lldpad not active"},
			"mlnx_qos -i ens1f0np0; systemctl is-active lldpad"),
		ConfiguredGIDIndexes: []topology.ConfiguredGIDIndex{{Index: 3, Source: "inventory"}, {Index: 3, Source: "/etc/nccl.conf"}},
		PFCPreventionMs:      known(8000, "ethtool --get-tunable ens1f0np0 pfc-prevention-tout"),
	}}
	if d := cmp.Diff(want, h.Ports, factOpts...); d != "" {
		t.Fatalf("ports (-want +got):\n%s", d)
	}
	p := h.Ports[0]
	noError(t, p)
	// The MAC a switch's LLDP names the port by, read from the fixture independently of
	// scenarioNetdev.
	if p.Link.Value.MAC != "0c:42:a1:6b:1a:2c" {
		t.Errorf("ens1f0np0 MAC %q, want 0c:42:a1:6b:1a:2c", p.Link.Value.MAC)
	}
	c := p.Counters
	if !c.Usable() || c.Value["rx_prio3_packets"] != 23950123 || c.Value["rdma_np_cnp_sent"] != 1021 || c.Value["rdma_rp_cnp_handled"] != 977 {
		t.Errorf("counters: known %v, rx_prio3_packets %d, rdma_np_cnp_sent %d, rdma_rp_cnp_handled %d",
			c.Usable(), c.Value["rx_prio3_packets"], c.Value["rdma_np_cnp_sent"], c.Value["rdma_rp_cnp_handled"])
	}
	if want := "ethtool -S ens1f0np0; grep -s -H . /sys/class/infiniband/mlx5_0/ports/1/hw_counters/*"; c.Source.Command != want {
		t.Errorf("counters command %q, want %q", c.Source.Command, want)
	}
	// evidence excerpts carry the deciding lines
	for what, ex := range map[string][2]string{
		"QoS":   {p.QoS.Source.Excerpt, "\tenabled     0   0   0   1   0   0   0   0"},
		"State": {p.State.Source.Excerpt, "active_mtu:\t\t4096 (5)"},
		"GIDs":  {p.GIDs.Source.Excerpt, "/sys/class/infiniband/mlx5_0/ports/1/gid_attrs/ndevs/7:ens1f0np0.100"},
		"Link":  {p.Link.Source.Excerpt, `"ifname":"ens1f0np0","mtu":9000`},
		"ToS":   {p.ToS.Source.Excerpt, "Global tclass=106"},
		"DCBX":  {p.DCBX.Source.Excerpt, "DCBX mode: OS controlled\nlldpad: inactive"},
	} {
		if !strings.Contains(ex[0], ex[1]) {
			t.Errorf("%s excerpt %q lacks %q", what, ex[0], ex[1])
		}
	}
	if strings.Contains(p.GIDs.Source.Excerpt, "gids/8:") {
		t.Error("GID excerpt carries empty slots")
	}
}

func TestCollectDualPort(t *testing.T) {
	const s = "dual-port"
	f := newFakeRunner(s)
	dev, err := collectScenario(t, f, inventory.DeviceSpec{Name: "gpu02"})
	if err != nil {
		t.Fatal(err)
	}
	h := dev.Host
	if d := cmp.Diff(known(true, CmdLLDPAD), h.LLDPAgent, factOpts...); d != "" {
		t.Errorf("LLDPAgent (-want +got):\n%s", d)
	}
	// a missing /etc/nccl.conf is "not set": unknown, but not an error
	if h.NCCLGIDIndex.Usable() || h.NCCLGIDIndex.Source.Error != "" {
		t.Errorf("NCCLGIDIndex = %+v, want unknown without error", h.NCCLGIDIndex)
	}
	dcbxDetail := "OS controlled, and lldpad is active: it negotiates DCBX and may overwrite static settings"
	want := []*topology.HostPort{
		{
			Netdev: "ens1f0np0", RDMADevice: "mlx5_0", RDMAPort: 1,
			Link:  known(scenarioNetdev(t, s, "ens1f0np0"), CmdIPAddr),
			State: known(active100, CmdIbvDevinfo),
			GIDs:  known(scenarioGIDs(t, s, DevPort{"mlx5_0", 1}), CmdGIDs),
			QoS: known(topology.HostQoS{Tool: "mlnx_qos", Trust: "dscp", DSCPToPrio: defaultDSCPMap(), PFC: pfc3, DCBXMode: "os", CableLenM: 7,
				TCTSA: vendorTCs(), PrioTC: mlx5PrioTC()}, "mlnx_qos -i ens1f0np0"),
			Pause:           known(topology.Pause{}, "ethtool -a ens1f0np0"),
			DCQCN:           known(topology.DCQCN{NP: allPrios(true), RP: allPrios(true)}, ecnCmd("ens1f0np0")),
			CNP:             known(topology.CNP{DSCP: 48, Priority: 6, HasPrio: true}, ecnCmd("ens1f0np0")),
			ToS:             known(topology.ToS{Value: 106, Set: true, From: "traffic_class"}, "cat /sys/class/infiniband/mlx5_0/tc/1/traffic_class"),
			DCBX:            known(topology.DCBX{Mode: recipe.DCBXDynamic, Detail: dcbxDetail}, "mlnx_qos -i ens1f0np0; systemctl is-active lldpad"),
			PFCPreventionMs: known(8000, "ethtool --get-tunable ens1f0np0 pfc-prevention-tout"),
		},
		{
			Netdev: "ens1f1np1", RDMADevice: "mlx5_1", RDMAPort: 1,
			Link:  known(scenarioNetdev(t, s, "ens1f1np1"), CmdIPAddr),
			State: known(active100, CmdIbvDevinfo),
			GIDs:  known(scenarioGIDs(t, s, DevPort{"mlx5_1", 1}), CmdGIDs),
			QoS: known(topology.HostQoS{Tool: "mlnx_qos", Trust: "pcp", DCBXMode: "os", CableLenM: 7, TCTSA: vendorTCs(), PrioTC: mlx5PrioTC()},
				"mlnx_qos -i ens1f1np1"),
			Pause: known(topology.Pause{RX: true, TX: true}, "ethtool -a ens1f1np1"),
			DCQCN: known(topology.DCQCN{NP: allPrios(true), RP: allPrios(true)}, ecnCmd("ens1f1np1")),
			CNP:   known(topology.CNP{DSCP: 48, Priority: 6, HasPrio: true}, ecnCmd("ens1f1np1")),
			ToS: known(topology.ToS{Unreadable: true},
				"cat /sys/class/infiniband/mlx5_1/tc/1/traffic_class; cat /sys/kernel/config/rdma_cm/mlx5_1/ports/1/default_roce_tos"),
			DCBX: known(topology.DCBX{Mode: recipe.DCBXDynamic, Detail: dcbxDetail}, "mlnx_qos -i ens1f1np1; systemctl is-active lldpad"),
			// the Microsoft production choice, 100 ms ("RDMA over Commodity Ethernet at Scale", SIGCOMM 2016)
			PFCPreventionMs: known(100, "ethtool --get-tunable ens1f1np1 pfc-prevention-tout"),
		},
	}
	if d := cmp.Diff(want, h.Ports, factOpts...); d != "" {
		t.Fatalf("ports (-want +got):\n%s", d)
	}
	for _, p := range h.Ports {
		noError(t, p)
	}
	// rdma_cm's default ToS needs a configfs mkdir: a warning with the manual check, never a write
	tos := h.Ports[1].ToS.Source
	errContains(t, "ToS", tos, "mkdir", "never", "cma_roce_tos -d mlx5_1 -p 1")
	if !strings.Contains(tos.Excerpt, "traffic_class: not set") || !strings.Contains(tos.Excerpt, "No such file or directory") {
		t.Errorf("ToS excerpt %q should show both attempts", tos.Excerpt)
	}
	if !strings.Contains(h.Ports[0].QoS.Source.Excerpt, "WARNING: lldpad") {
		t.Errorf("QoS excerpt %q should keep the lldpad warning", h.Ports[0].QoS.Source.Excerpt)
	}
	if c := h.Ports[1].Counters; c.Value["rdma_out_of_sequence"] != 211 || c.Value["rx_global_pause"] != 0 {
		t.Errorf("port 1 counters: rdma_out_of_sequence %d, rx_global_pause present %v", c.Value["rdma_out_of_sequence"], hasKey(c.Value, "rx_global_pause"))
	}
	for _, cmd := range f.sent {
		if strings.Contains(cmd, "default_roce_tos") && strings.Contains(cmd, "mlx5_0") {
			t.Errorf("read %q although traffic_class was set", cmd)
		}
	}
}

func hasKey(m map[string]int64, k string) bool { _, ok := m[k]; return ok }

func TestCollectInboxDcbFallback(t *testing.T) {
	const s = "inbox-dcb"
	f := newFakeRunner(s)
	dev, err := collectScenario(t, f, inventory.DeviceSpec{Name: "gpu03"})
	if err != nil {
		t.Fatal(err)
	}
	const ifn = "enp59s0f0np0"
	qosCmd := "mlnx_qos -i " + ifn + "; dcb -j -N app show dev " + ifn + "; dcb -j pfc show dev " + ifn + "; dcb -j dcbx show dev " + ifn
	want := []*topology.HostPort{{
		Netdev: ifn, RDMADevice: "rocep59s0f0", RDMAPort: 1,
		Link:  known(scenarioNetdev(t, s, ifn), CmdIPAddr),
		State: known(active100, CmdIbvDevinfo),
		GIDs:  known(scenarioGIDs(t, s, DevPort{"rocep59s0f0", 1}), CmdGIDs),
		QoS:   known(topology.HostQoS{Tool: "dcb", Trust: "dscp", DSCPToPrio: defaultDSCPMap(), PFC: pfc3, DCBXMode: "os"}, qosCmd),
		Pause: known(topology.Pause{}, "ethtool -a "+ifn),
		DCQCN: unknown[topology.DCQCN](ecnCmd(ifn)),
		CNP:   unknown[topology.CNP](ecnCmd(ifn)),
		ToS: known(topology.ToS{Unreadable: true},
			"cat /sys/class/infiniband/rocep59s0f0/tc/1/traffic_class; cat /sys/kernel/config/rdma_cm/rocep59s0f0/ports/1/default_roce_tos"),
		DCBX:                 known(topology.DCBX{Mode: recipe.DCBXStatic, Detail: "OS controlled, lldpad not active"}, "dcb -j dcbx show dev "+ifn+"; systemctl is-active lldpad"),
		ConfiguredGIDIndexes: []topology.ConfiguredGIDIndex{{Index: 3, Source: "/etc/nccl.conf"}},
		// a NIC without the stall-detect capability: ethtool cannot get the tunable, so the NIC
		// has none (LINK-PFC-STORM skips), not an unread one (which would be an error)
		PFCPreventionMs: topology.Unsupported(0, noStormTimeout, topology.Evidence{Command: "ethtool --get-tunable " + ifn + " pfc-prevention-tout"}),
	}}
	if d := cmp.Diff(want, dev.Host.Ports, factOpts...); d != "" {
		t.Fatalf("ports (-want +got):\n%s", d)
	}
	p := dev.Host.Ports[0]
	noError(t, p)
	// both attempts are in the QoS evidence
	if !strings.HasPrefix(p.QoS.Source.Excerpt, "mlnx_qos -i "+ifn+": exit 127: bash: line 1: mlnx_qos: command not found") ||
		!strings.Contains(p.QoS.Source.Excerpt, `"prio_pfc":[false,false,false,true`) {
		t.Errorf("QoS excerpt %q should show the failed mlnx_qos and the dcb output", p.QoS.Source.Excerpt)
	}
	if tun := p.PFCPreventionMs.Source; tun.Error != "" || tun.Excerpt != "pfc-prevention-tout: Cannot get tunable" {
		t.Errorf("tunable evidence: error %q, excerpt %q; want ethtool's refusal as the excerpt, no error", tun.Error, tun.Excerpt)
	}
	errContains(t, "DCQCN", p.DCQCN.Source, "inbox mlx5", "ROCE_CC_PRIO_MASK_P1")
	errContains(t, "CNP", p.CNP.Source, "CNP_DSCP_P1")
	errContains(t, "ToS", p.ToS.Source, "cma_roce_tos -d rocep59s0f0 -p 1")
	if !strings.Contains(p.ToS.Source.Excerpt, "traffic_class: exit 1: cat: /sys/class/infiniband/rocep59s0f0/tc/1/traffic_class: No such file or directory") {
		t.Errorf("ToS excerpt %q", p.ToS.Source.Excerpt)
	}
}

func TestCollectGIDFallbackWithoutRdma(t *testing.T) {
	const s = "ipv6-gids-no-rdma"
	dev, err := collectScenario(t, newFakeRunner(s), inventory.DeviceSpec{Name: "centos12"})
	if err != nil {
		t.Fatal(err)
	}
	h := dev.Host
	if d := cmp.Diff(known(false, CmdLLDPAD), h.LLDPAgent, factOpts...); d != "" {
		t.Errorf("LLDPAgent for `unknown` (-want +got):\n%s", d)
	}
	// mlx5_5 is InfiniBand without a netdev: not audited. mlx5_2 is bound through GID index 0.
	want := []*topology.HostPort{{
		Netdev: "ens6", RDMADevice: "mlx5_2", RDMAPort: 1,
		Link:  known(scenarioNetdev(t, s, "ens6"), CmdIPAddr),
		State: known(active100, CmdIbvDevinfo),
		GIDs:  known(scenarioGIDs(t, s, DevPort{"mlx5_2", 1}), CmdGIDs),
		QoS:   known(topology.HostQoS{Tool: "mlnx_qos", PFC: pfc3, TCTSA: vendorTCs(), PrioTC: mlx5PrioTC()}, "mlnx_qos -i ens6"),
		Pause: known(topology.Pause{}, "ethtool -a ens6"),
		DCQCN: known(topology.DCQCN{NP: map[int]bool{0: false, 1: false, 2: false, 3: true, 4: false, 5: false, 6: false, 7: false},
			RP: map[int]bool{0: false, 1: false, 2: false, 3: true, 4: false, 5: false, 6: false, 7: false}}, ecnCmd("ens6")),
		CNP: known(topology.CNP{DSCP: 48, Priority: 6, HasPrio: true}, ecnCmd("ens6")),
		ToS: known(topology.ToS{Value: 106, Set: true, From: "default_roce_tos"},
			"cat /sys/class/infiniband/mlx5_2/tc/1/traffic_class; cat /sys/kernel/config/rdma_cm/mlx5_2/ports/1/default_roce_tos"),
		DCBX:                 unknown[topology.DCBX]("mlnx_qos -i ens6; systemctl is-active lldpad"),
		ConfiguredGIDIndexes: []topology.ConfiguredGIDIndex{{Index: 3, Source: "/etc/nccl.conf"}},
		PFCPreventionMs:      known(8000, "ethtool --get-tunable ens6 pfc-prevention-tout"),
	}}
	if d := cmp.Diff(want, h.Ports, factOpts...); d != "" {
		t.Fatalf("ports (-want +got):\n%s", d)
	}
	errContains(t, "DCBX", h.Ports[0].DCBX.Source, "DCBX mode")
	gids := h.Ports[0].GIDs.Value
	var v4v2, v6v2 bool
	for _, g := range gids {
		v4v2 = v4v2 || (g.Type == v2 && g.IP == "172.17.242.56" && g.Index == 3)
		v6v2 = v6v2 || (g.Type == v2 && g.IP == "2001:db8:242::56" && g.Index == 5)
	}
	if !v4v2 || !v6v2 {
		t.Errorf("GIDs %+v lack the IPv4 (3) or IPv6 (5) RoCE v2 entry", gids)
	}
}
