package linux

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

func TestParseLLDPNeighbors(t *testing.T) {
	for _, c := range []struct {
		scenario string
		want     []topology.LLDPNeighbor
	}{
		// lldpd not running: the empty document {"lldp": [{}]}
		{"ipv6-gids-no-rdma", []topology.LLDPNeighbor{}},
		{"ofed-lossless", []topology.LLDPNeighbor{{LocalPort: "ens1f0np0", SystemName: "leaf2", PortID: "swp1", PortDescr: "swp1",
			ChassisID: "1c:34:da:5e:7a:00", MgmtAddress: "192.168.200.12"}}},
		{"inbox-dcb", []topology.LLDPNeighbor{
			{LocalPort: "eno1", SystemName: "oob-mgmt-switch", PortID: "swp10", PortDescr: "swp10",
				ChassisID: "44:38:39:00:00:5a", MgmtAddress: "192.168.200.1"},
			{LocalPort: "enp59s0f0np0", SystemName: "leaf3.dc1.example.net", PortID: "Ethernet3", PortDescr: "gpu03 enp59s0f0np0",
				ChassisID: "00:1c:73:a1:b2:03", MgmtAddress: "192.168.200.13"},
		}},
	} {
		got, err := ParseLLDPNeighbors(readFixture(t, c.scenario, "lldpcli"))
		if err != nil {
			t.Fatalf("%s: %v", c.scenario, err)
		}
		if got == nil {
			t.Errorf("%s: nil neighbours, want an empty list", c.scenario)
		}
		if d := cmp.Diff(c.want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", c.scenario, d)
		}
	}
}

// Two neighbours on one interface are two entries (lldpd repeats the interface), and the
// nesting is read as lists at every level, several mgmt-ip included.
func TestParseLLDPNeighborsNesting(t *testing.T) {
	text := `{"lldp": [{"interface": [
	  {"name": "eth0", "via": "LLDP", "chassis": [{"id": [{"type": "local", "value": "sw-a"}], "name": [{"value": "sw-a"}],
	    "mgmt-ip": [{"value": "10.0.0.1"}, {"value": "fe80::1"}]}],
	   "port": [{"id": [{"type": "mac", "value": "00:00:00:00:00:02"}], "descr": [{"value": "Ethernet8"}]}]},
	  {"name": "eth0", "via": "CDPv2", "chassis": [{"id": [{"type": "ifname", "value": "x"}]}], "port": [{"id": [{"type": "ifname", "value": "Eth1/3"}]}]}
	]}]}`
	got, err := ParseLLDPNeighbors(text)
	if err != nil {
		t.Fatal(err)
	}
	want := []topology.LLDPNeighbor{
		{LocalPort: "eth0", SystemName: "sw-a", PortID: "00:00:00:00:00:02", PortDescr: "Ethernet8", ChassisID: "sw-a", MgmtAddress: "10.0.0.1"},
		{LocalPort: "eth0", PortID: "Eth1/3", ChassisID: "x"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestParseLLDPNeighborsRejects(t *testing.T) {
	for name, c := range map[string]struct{ text, want string }{
		// `-f json` (not json0) turns a single neighbour into objects keyed by name
		"json, not json0": {`{"lldp": {"interface": {"eth0": {"via": "LLDP"}}}}`, "cannot unmarshal object"},
		"plain text":      {"-------------------------------------------------------------------------------\nLLDP neighbors:\n", "no -f json0"},
		"no lldp key":     {`{"lldp-neighbors": []}`, `no "lldp" list`},
		"nameless":        {`{"lldp": [{"interface": [{"via": "LLDP"}]}]}`, "without a name"},
		"truncated":       {`{"lldp": [{"interface": [`, "unexpected end"},
		"empty":           {"", "no -f json0"},
	} {
		if _, err := ParseLLDPNeighbors(c.text); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want %q", name, err, c.want)
		}
	}
}

// The host's neighbours as Collect reports them, in every state an LLDP agent can be in.
func TestCollectLLDPNeighbors(t *testing.T) {
	type want struct {
		known   bool
		n       int
		excerpt string // substring of Excerpt
		err     string // substring of Error; "" for none
	}
	for _, c := range []struct {
		name, scenario string
		override       *collectors.Output
		want           want
	}{
		{"one neighbour", "ofed-lossless", nil, want{true, 1, "ens1f0np0: leaf2 port swp1", ""}},
		{"several neighbours", "inbox-dcb", nil, want{true, 2, "enp59s0f0np0: leaf3.dc1.example.net port Ethernet3 (gpu03 enp59s0f0np0)", ""}},
		{"lldpcli not installed", "dual-port", nil, want{true, 0, "no LLDP agent: lldpcli is not installed (bash: line 1: lldpcli: command not found)", ""}},
		{"lldpd not running", "ipv6-gids-no-rdma", nil, want{true, 0, "no LLDP agent: lldpd is not running (2019-12-02T10:05:00 [WARN/control] unable to connect to socket /run/lldpd/lldpd.socket: No such file or directory)", ""}},
		{"running, no neighbour", "ofed-lossless", &collectors.Output{Stdout: "{\n  \"lldp\": [\n    {\n      \n    }\n  ]\n}\n\n"}, want{true, 0, "no LLDP neighbours", ""}},
		{"socket refused", "ofed-lossless", &collectors.Output{Stdout: readFixture(t, "ipv6-gids-no-rdma", "lldpcli"),
			Stderr: "2015-06-29T13:19:49 [WARN/control] unable to connect to socket /var/run/lldpd.socket: Permission denied\n" +
				"2015-06-29T13:19:49 [WARN/lldpctl] not able to get the list of interfaces. Unable to connect to lldpd daemon\n"},
			want{false, 0, "", "may not read its socket (2015-06-29T13:19:49 [WARN/control] unable to connect to socket /var/run/lldpd.socket: Permission denied); set sudo: true"}},
		{"sudo: not installed", "ofed-lossless", &collectors.Output{ExitCode: 1, Stderr: "sudo: lldpcli: command not found\n"}, want{true, 0, "lldpcli is not installed", ""}},
		{"old lldpd, plain text", "ofed-lossless", &collectors.Output{Stdout: "-------------------------------------------------------------------------------\nLLDP neighbors:\n"}, want{false, 0, "LLDP neighbors:", "no -f json0"}},
		{"failed", "ofed-lossless", &collectors.Output{ExitCode: 1, Stderr: "lldpcli: unknown option -- f\n"}, want{false, 0, "", "exit 1: lldpcli: unknown option -- f"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFakeRunner(c.scenario)
			if c.override != nil {
				f.overrides[CmdLLDPNeighbors] = *c.override
			}
			dev, err := collectScenario(t, f, inventory.DeviceSpec{Name: "h"})
			if err != nil {
				t.Fatal(err)
			}
			got := dev.Host.LLDP
			if got.Usable() != c.want.known || len(got.Value) != c.want.n || got.Source.Command != CmdLLDPNeighbors {
				t.Errorf("known %v, %d neighbours, command %q; want known %v, %d", got.Usable(), len(got.Value), got.Source.Command, c.want.known, c.want.n)
			}
			if got.Usable() && got.Value == nil {
				t.Error("a known fact must hold an empty list, not null")
			}
			if !strings.Contains(got.Source.Excerpt, c.want.excerpt) {
				t.Errorf("excerpt %q lacks %q", got.Source.Excerpt, c.want.excerpt)
			}
			if (c.want.err == "") != (got.Source.Error == "") || !strings.Contains(got.Source.Error, c.want.err) {
				t.Errorf("error %q, want %q", got.Source.Error, c.want.err)
			}
		})
	}
}

// Every recorded lldpcli json0 output takes the scan, not the encoding/json fallback.
func TestLLDPFixturesTakeTheScan(t *testing.T) {
	fixturesTakeTheScan(t, "lldpcli", "{", func(s string) bool { _, ok := scanLLDPJSON0(s); return ok })
}
