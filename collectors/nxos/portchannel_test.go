package nxos

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/topology"
)

// The portchannel scenario bonds Ethernet1/1 and Ethernet1/2 into port-channel10, which
// carries the whole QoS configuration; the members hold only their channel-group line.
func TestCollectPortChannelMembersInherit(t *testing.T) {
	sw := collect(t, &fakeRunner{Scenario: "portchannel"})
	want := []*topology.SwitchPort{healthyPort("Ethernet1/1"), healthyPort("Ethernet1/2"), healthyPort("Ethernet1/49")}
	if d := cmp.Diff(want, sw.Ports, ignoreExcerpt); d != "" {
		t.Fatalf("ports (-want +got):\n%s", d)
	}
	p := sw.Port("Ethernet1/2")
	for name, ex := range map[string]string{"trust": p.Trust.Source.Excerpt, "pfc": p.PFC.Source.Excerpt, "dcbx": p.DCBX.Source.Excerpt} {
		for _, w := range []string{"interface Ethernet1/2\n  channel-group 10 mode active", "interface port-channel10\n  priority-flow-control mode on"} {
			if !strings.Contains(ex, w) {
				t.Errorf("%s evidence %q lacks %q", name, ex, w)
			}
		}
	}
	if ex := sw.Port("Ethernet1/49").PFC.Source.Excerpt; strings.Contains(ex, "port-channel") {
		t.Errorf("Ethernet1/49 is in no port-channel, yet its evidence names one: %q", ex)
	}
}

func TestPortChannelMemberOwnLineWins(t *testing.T) {
	cfg := fixture(t, "portchannel", CmdQoSConfig)
	cfg = strings.Replace(cfg, "interface Ethernet1/2\n  channel-group 10 mode active\n",
		"interface Ethernet1/2\n  channel-group 10 mode active\n  priority-flow-control mode auto\n", 1)
	sw := collect(t, &fakeRunner{Scenario: "portchannel", Override: map[string]collectors.Output{CmdQoSConfig: {Stdout: cfg}}})
	p := sw.Port("Ethernet1/2")
	if p.PFC.Value.Mode != "auto" || p.DCBX.Value.Mode != "dcbx" {
		t.Errorf("member's own mode auto should win over the port-channel's mode on: PFC %+v DCBX %+v", p.PFC.Value, p.DCBX.Value)
	}
	if p.Trust.Value != "dscp" {
		t.Errorf("trust %q: the qos input policy the member does not set comes from port-channel10", p.Trust.Value)
	}
	if m := sw.Port("Ethernet1/1").PFC.Value.Mode; m != "on" {
		t.Errorf("Ethernet1/1 PFC mode %q, want on from port-channel10", m)
	}
}

// `show running-config ipqos` may leave channel-group lines out; eth_bundle of
// `show interface` then says which port-channel a port belongs to.
func TestPortChannelMembershipFromEthBundle(t *testing.T) {
	ifs, err := ParseInterface(fixture(t, "portchannel", CmdInterface))
	if err != nil {
		t.Fatal(err)
	}
	if ifs["Ethernet1/1"].Bundle != "10" || ifs["Ethernet1/2"].Bundle != "10" || ifs["Ethernet1/49"].Bundle != "" {
		t.Fatalf("eth_bundle: 1/1 %q 1/2 %q 1/49 %q", ifs["Ethernet1/1"].Bundle, ifs["Ethernet1/2"].Bundle, ifs["Ethernet1/49"].Bundle)
	}
	cfg := strings.ReplaceAll(fixture(t, "portchannel", CmdQoSConfig), "  channel-group 10 mode active\n", "")
	sw := collect(t, &fakeRunner{Scenario: "portchannel", Override: map[string]collectors.Output{CmdQoSConfig: {Stdout: cfg}}})
	want := []*topology.SwitchPort{healthyPort("Ethernet1/1"), healthyPort("Ethernet1/2"), healthyPort("Ethernet1/49")}
	if d := cmp.Diff(want, sw.Ports, ignoreExcerpt); d != "" {
		t.Fatalf("ports (-want +got):\n%s", d)
	}
	if ex := sw.Port("Ethernet1/1").Trust.Source.Excerpt; !strings.Contains(ex, "eth_bundle") || !strings.Contains(ex, "interface port-channel10") {
		t.Errorf("trust evidence %q should name eth_bundle and show the port-channel block", ex)
	}
}

func TestParsePortChannelBlocks(t *testing.T) {
	c, err := ParseQoSConfig(fixture(t, "portchannel", CmdQoSConfig))
	if err != nil {
		t.Fatal(err)
	}
	pc := c.PortChannels["10"]
	if pc == nil || pc.PFCMode != "on" || pc.QoSInput != "ROCE-IN" {
		t.Fatalf("port-channel10: %+v", pc)
	}
	if _, ok := c.Interfaces["port-channel10"]; ok {
		t.Error("port-channel10 is not a front-panel port")
	}
	if g := c.Interfaces["Ethernet1/1"].ChannelGroup; g != "10" {
		t.Errorf("Ethernet1/1 channel-group %q", g)
	}
	// A member of a port-channel without a block keeps only its own settings.
	if iq := c.ForPort("Ethernet1/49", "20"); iq != c.Interfaces["Ethernet1/49"] {
		t.Errorf("no port-channel20 block, yet ForPort changed Ethernet1/49: %+v", iq)
	}
	bad := strings.Replace(fixture(t, "portchannel", CmdQoSConfig), "channel-group 10 mode", "channel-group ten mode", 1)
	if _, err := ParseQoSConfig(bad); err == nil || !strings.Contains(err.Error(), "channel-group") {
		t.Errorf("a channel-group that is not a number: err %v", err)
	}
	for name, want := range map[string]string{"port-channel10": "10", "Port-channel7": "7", "port-channel10.100": "", "Ethernet1/1": ""} {
		if got, _ := portChannelNumber(name); got != want {
			t.Errorf("portChannelNumber(%q) = %q, want %q", name, got, want)
		}
	}
}
