package eos

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/topology"
)

// The portchannel scenario bonds Ethernet1 and Ethernet2 (one host, MLAG) into Port-Channel10,
// which carries trust, PFC, watchdog and tx-queues; the members hold only channel-group.
func TestCollectPortChannelMembersInherit(t *testing.T) {
	sw := collect(t, &fakeRunner{Scenario: "portchannel"})
	want := []*topology.SwitchPort{
		healthyPort("Ethernet1", 9214, "dscp", "", map[string]int64{"rx_pause": 0, "tx_pause": 0, "pfc_rx_frames": 1204, "pfc_tx_frames": 0}),
		healthyPort("Ethernet2", 9214, "dscp", "", map[string]int64{"rx_pause": 0, "tx_pause": 0, "pfc_rx_frames": 0, "pfc_tx_frames": 311}),
		healthyPort("Ethernet31/1", 9214, "dscp", "", map[string]int64{"rx_pause": 0, "tx_pause": 0, "pfc_rx_frames": 52, "pfc_tx_frames": 977}),
	}
	if d := cmp.Diff(want, sw.Ports, ignoreExcerpt); d != "" {
		t.Fatalf("ports (-want +got):\n%s", d)
	}
	p := sw.Port("Ethernet2")
	for _, c := range []struct{ name, excerpt, want string }{
		{"trust", p.Trust.Source.Excerpt, "interface Port-Channel10\n   qos trust dscp"},
		{"trust member", p.Trust.Source.Excerpt, "channel-group 10 mode active"},
		{"pfc", p.PFC.Source.Excerpt, "interface Port-Channel10\n   priority-flow-control on\n   priority-flow-control priority 3 no-drop"},
		{"ecn", p.ECN.Source.Excerpt, "random-detect ecn"},
	} {
		if !strings.Contains(c.excerpt, c.want) {
			t.Errorf("%s evidence %q lacks %q", c.name, c.excerpt, c.want)
		}
	}
	if ex := sw.Port("Ethernet31/1").Trust.Source.Excerpt; strings.Contains(ex, "Port-Channel") {
		t.Errorf("Ethernet31/1 is in no port-channel, yet its evidence names one: %q", ex)
	}
}

func TestPortChannelMemberOwnSettingsWin(t *testing.T) {
	cfg := fixture(t, "portchannel", CmdRunningConfig)
	cfg = strings.Replace(cfg, "   description gpu01_ens1f1np0\n", "   description gpu01_ens1f1np0\n   qos trust cos\n   priority-flow-control priority 4 no-drop\n", 1)
	rc, err := ParseRunningConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	e, err := rc.EffectiveQoS(rc.Interfaces["Ethernet2"])
	if err != nil {
		t.Fatal(err)
	}
	if e.Trust != "cos" {
		t.Errorf("trust %q: the member's own qos trust cos wins over the port-channel's dscp", e.Trust)
	}
	if d := cmp.Diff([]int{3, 4}, e.PFCPriorities(false)); d != "" {
		t.Errorf("no-drop priorities (-want +got): %s", d)
	}
	e1, _ := rc.EffectiveQoS(rc.Interfaces["Ethernet1"])
	if e1.Trust != "dscp" {
		t.Errorf("Ethernet1 trust %q, want dscp from Port-Channel10", e1.Trust)
	}

	// A member's own service-profile wins over the port-channel's; with none of its own the
	// member takes the port-channel's profile.
	cfg = strings.Replace(fixture(t, "portchannel", CmdRunningConfig), "   mlag 10\n", "   mlag 10\n   service-profile OTHER\n", 1)
	cfg = strings.Replace(cfg, "   description gpu01_ens1f1np0\n", "   description gpu01_ens1f1np0\n   service-profile QOS_ROCE_DCQCN\n", 1)
	cfg = strings.Replace(cfg, "qos profile QOS_ROCE_DCQCN\n", "qos profile OTHER\n   no qos trust\n!\nqos profile QOS_ROCE_DCQCN\n", 1)
	if rc, err = ParseRunningConfig(cfg); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"Ethernet1": "OTHER", "Ethernet2": "QOS_ROCE_DCQCN"} {
		e, err := rc.EffectiveQoS(rc.Interfaces[name])
		if err != nil {
			t.Fatal(err)
		}
		if e.Profile != want {
			t.Errorf("%s profile %q, want %q", name, e.Profile, want)
		}
		// The port-channel's direct qos trust dscp outranks its own profile's no qos trust.
		if e.Trust != "dscp" {
			t.Errorf("%s trust %q, want dscp", name, e.Trust)
		}
	}
}

func TestParsePortChannelBlocks(t *testing.T) {
	rc, err := ParseRunningConfig(fixture(t, "portchannel", CmdRunningConfig))
	if err != nil {
		t.Fatal(err)
	}
	pc := rc.PortChannels["10"]
	if pc == nil || pc.Trust != "dscp" || pc.PFC == nil || !*pc.PFC || !pc.NoDrop[3] || pc.MTU != 9214 {
		t.Fatalf("Port-Channel10: %+v", pc)
	}
	if _, ok := rc.Interfaces["Port-Channel10"]; ok {
		t.Error("Port-Channel10 is not a front-panel port")
	}
	if g := rc.Interfaces["Ethernet2"].ChannelGroup; g != "10" || rc.PortChannelOf(rc.Interfaces["Ethernet2"]) != pc {
		t.Errorf("Ethernet2 channel-group %q", g)
	}
	if rc.PortChannelOf(rc.Interfaces["Ethernet31/1"]) != nil || rc.Routed(rc.Interfaces["Ethernet1"]) || !rc.Routed(rc.Interfaces["Ethernet31/1"]) {
		t.Error("Ethernet31/1 is routed and in no port-channel; Ethernet1 is switched")
	}
	routed := strings.Replace(fixture(t, "portchannel", CmdRunningConfig), "   switchport access vlan 100\n   mlag 10\n", "   no switchport\n", 1)
	if rc, err = ParseRunningConfig(routed); err != nil || !rc.Routed(rc.Interfaces["Ethernet1"]) {
		t.Errorf("a member of a routed port-channel is routed (err %v)", err)
	}
	bad := strings.Replace(fixture(t, "portchannel", CmdRunningConfig), "channel-group 10 mode", "channel-group ten mode", 1)
	if _, err := ParseRunningConfig(bad); err == nil || !strings.Contains(err.Error(), "channel-group") {
		t.Errorf("a channel-group that is not a number: err %v", err)
	}
	for name, want := range map[string]string{"Port-Channel10": "10", "Port-Channel10.100": "", "Ethernet1": ""} {
		if got, _ := portChannelNumber(name); got != want {
			t.Errorf("portChannelNumber(%q) = %q, want %q", name, got, want)
		}
	}
}
