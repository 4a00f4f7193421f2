package linuxhost

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const cmdLLDP = "lldpcli -f json0 show neighbors"

// fixtureLLDP is a host collector fixture of `lldpcli -f json0 show neighbors`, written from
// lldpd's source independently of this renderer (fixtures/README.md).
func fixtureLLDP(t *testing.T, scenario string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "linux", scenario, "lldpcli"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var switchCaps = []LLDPCapability{{"Bridge", true}, {"Router", true}}

// The render is lldpd's json0 byte for byte: the collector fixture with one neighbour, and
// the empty document of a host without neighbours.
func TestLLDPRenderMatchesLLDPd(t *testing.T) {
	h := NewGPUHost("gpu01", 1)
	if out, stderr, exit := h.Exec(context.Background(), cmdLLDP); out != fixtureLLDP(t, "ipv6-gids-no-rdma") || stderr != "" || exit != 0 {
		t.Errorf("no neighbours: exit %d stderr %q\n%q", exit, stderr, out)
	}
	h.LLDPNeighbors = map[string][]LLDPNeighbor{Port0: {{
		ChassisIDType: "mac", ChassisID: "1c:34:da:5e:7a:00", SysName: "leaf2",
		SysDescr: "Cumulus Linux version 5.9.1 running on Mellanox Technologies Ltd. MSN3700",
		MgmtIP:   "192.168.200.12", Capabilities: switchCaps,
		PortIDType: "ifname", PortID: "swp1", PortDescr: "swp1", TTL: 120,
		Age: 2*time.Hour + 14*time.Minute + 37*time.Second,
	}}}
	if out, _, _ := h.Exec(context.Background(), cmdLLDP); out != fixtureLLDP(t, "ofed-lossless") {
		t.Errorf("one neighbour differs from fixtures/linux/ofed-lossless/lldpcli:\n%s", firstDiff(out, fixtureLLDP(t, "ofed-lossless")))
	}
}

// Interfaces in ifindex order, one entry per neighbour, remote chassis numbered in the order
// they appear; a port without carrier shows no neighbour; a host without lldpd has no lldpcli.
func TestLLDPRenderFollowsState(t *testing.T) {
	h := gpu01()
	leaf := func(name, mac, port string) LLDPNeighbor {
		return LLDPNeighbor{ChassisIDType: "mac", ChassisID: mac, SysName: name, Capabilities: switchCaps,
			PortIDType: "ifname", PortID: port, TTL: 120, Age: 3 * 24 * time.Hour}
	}
	h.LLDPNeighbors = map[string][]LLDPNeighbor{
		Port1: {leaf("leaf2", "02:00:00:00:00:02", "swp1"), leaf("leaf1", "02:00:00:00:00:01", "Ethernet4")},
		Port0: {leaf("leaf1", "02:00:00:00:00:01", "Ethernet0")},
		"lo":  {leaf("bogus", "02:00:00:00:00:09", "x")},
	}
	type entry struct {
		Name, RID, Age string
		Chassis        []struct {
			Name []struct{ Value string }
		}
		Port []struct {
			ID []struct{ Type, Value string }
		}
	}
	entries := func() []entry {
		out, _, _ := h.Exec(context.Background(), cmdLLDP)
		var doc struct {
			LLDP []struct{ Interface []entry }
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.LLDP) != 1 {
			t.Fatalf("render does not parse (%v):\n%s", err, out)
		}
		return doc.LLDP[0].Interface
	}
	var got []string
	for _, e := range entries() {
		got = append(got, e.Name+"/"+e.RID+"/"+e.Chassis[0].Name[0].Value+"/"+e.Port[0].ID[0].Type+":"+e.Port[0].ID[0].Value+"/"+e.Age)
	}
	want := "ens1f0np0/1/leaf1/ifname:Ethernet0/3 days, 00:00:00 ens1f1np1/2/leaf2/ifname:swp1/3 days, 00:00:00 ens1f1np1/1/leaf1/ifname:Ethernet4/3 days, 00:00:00"
	if strings.Join(got, " ") != want {
		t.Errorf("entries %q\nwant    %q", strings.Join(got, " "), want)
	}

	h.Netdev(Port1).Carrier = false
	if es := entries(); len(es) != 1 || es[0].Name != Port0 {
		t.Errorf("a port without carrier still shows neighbours: %+v", es)
	}

	h.LLDPd = false
	for cmd, want := range map[string][3]any{
		cmdLLDP:              {"", "bash: line 1: lldpcli: command not found\n", 127},
		"sudo -n " + cmdLLDP: {"", "sudo: lldpcli: command not found\n", 1},
	} {
		out, stderr, exit := h.Exec(context.Background(), cmd)
		if got := [3]any{out, stderr, exit}; got != want {
			t.Errorf("%q without lldpd = %q, want %q", cmd, got, want)
		}
	}
}

func TestLLDPAge(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0:                             "0 day, 00:00:00",
		59 * time.Second:              "0 day, 00:00:59",
		25*time.Hour + 61*time.Second: "1 day, 01:01:01",
		12*24*time.Hour + 5*time.Hour + 41*time.Minute + 9*time.Second: "12 days, 05:41:09",
	} {
		if got := lldpAge(d); got != want {
			t.Errorf("%v -> %q, want %q", d, got, want)
		}
	}
}
