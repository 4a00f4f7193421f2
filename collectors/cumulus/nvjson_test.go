package cumulus

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/internal/fixturerunner"
	"github.com/roceaudit/roceaudit/inventory"
)

// JSON cells are whole: a host name and a MAC port ID too wide for the text table come through.
func TestParseInterfaceLLDPJSON(t *testing.T) {
	out := `{"swp3":{"type":"swp","lldp":{"neighbor":{"gpu-node-0417.rack12.example.net":{"chassis":{"system-name":"gpu-node-0417.rack12.example.net"},` +
		`"port":{"name":"48:b0:2d:76:ee:8e"}}}}},"eth0":{"type":"eth"},"swp1":{"lldp":{"neighbor":{}}}}`
	ifs, err := ParseInterfaceLLDPJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	var got []Interface
	for _, i := range ifs {
		i.Line = ""
		got = append(got, i)
	}
	want := []Interface{{Name: "eth0", Type: "eth"}, {Name: "swp1", Type: "swp"},
		{Name: "swp3", Type: "swp", RemoteHost: "gpu-node-0417.rack12.example.net", RemotePort: "48:b0:2d:76:ee:8e"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	for name, bad := range map[string]string{"not JSON": "Interface  Type\n---------  ----\n", "empty": "{}", "array": "[]"} {
		if _, err := ParseInterfaceLLDPJSON(bad); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
}

// The JSON carries raw counts (the text's "188.15 GB" is 203884632744 bytes here) and each
// traffic class's ECN marks; numbers may be JSON numbers or strings.
func TestParseCountersQoSJSON(t *testing.T) {
	m, err := ParseCountersQoSJSON(fixturerunner.MustRead(t, fixtures{}, "healthy", "nv show interface swp1 counters qos -o json"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	for _, k := range []string{"queue3_tx_packets", "queue3_tx_bytes", "queue3_ecn_marked_packets", "queue3_drop_bytes", "pg3_rx_frames", "pfc_tx_pause_prio3", "pfc_tx_pause_duration_prio3"} {
		got[k] = m[k]
	}
	want := map[string]int64{"queue3_tx_packets": 202328436, "queue3_tx_bytes": 203884632744, "queue3_ecn_marked_packets": 1843,
		"queue3_drop_bytes": 0, "pg3_rx_frames": 202328436, "pfc_tx_pause_prio3": 1271, "pfc_tx_pause_duration_prio3": 30504}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if m, err := ParseCountersQoSJSON(`{"egress-queue-stats":{"3":{"tx-uc-buffer-discards":"76993","unknown-column":"x"}}}`); err != nil ||
		!cmp.Equal(m, map[string]int64{"queue3_drop_bytes": 76993}) {
		t.Errorf("string count: %v %v", m, err)
	}
	for name, bad := range map[string]string{
		"text":      "Egress Queue Statistics\n===\n",
		"no tables": `{"other":{}}`,
		"class":     `{"pfc-stats":{"x":{"rx-pause-frames":1}}}`,
		"count":     `{"pfc-stats":{"3":{"rx-pause-frames":"n/a"}}}`,
		"negative":  `{"pfc-stats":{"3":{"rx-pause-frames":-1}}}`,
		"shape":     `{"pfc-stats":[1,2]}`,
	} {
		if _, err := ParseCountersQoSJSON(bad); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
}

// A switch that answers `-o json` with something that does not decode is read in text, and is
// asked nothing more in JSON; the evidence says why.
func TestUndecodableJSONFallsBackToText(t *testing.T) {
	r := &fakeRunner{Scenario: "healthy", Override: map[string]collectors.Output{jsonCmd(CmdInterfaceLLDP): {Stdout: "Interface  Type\n"}}}
	dev, err := collect(t, r, inventory.DeviceSpec{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range r.Sent[2:] {
		if strings.HasSuffix(c, "-o json") {
			t.Errorf("sent %q after JSON was refused", c)
		}
	}
	lldp := dev.Switch.LLDP
	if lldp.Source.Command != CmdInterfaceLLDP || len(lldp.Value) != 5 {
		t.Errorf("LLDP %+v", lldp)
	}
	c := dev.Switch.Port("swp1").Counters
	if !c.Usable() || c.Source.Command != "nv show interface swp1 counters qos" {
		t.Errorf("counters %+v", c.Source)
	}
}

// A port whose JSON counters fail to decode falls back to the text for that port and the
// rest; the excerpt names why.
func TestCounterJSONFallback(t *testing.T) {
	r := &fakeRunner{Scenario: "healthy", Override: map[string]collectors.Output{"nv show interface swp1 counters qos -o json": {Stdout: "{"}}}
	dev, err := collect(t, r, inventory.DeviceSpec{})
	if err != nil {
		t.Fatal(err)
	}
	c := dev.Switch.Port("swp1").Counters
	if !c.Usable() || c.Source.Command != "nv show interface swp1 counters qos" || !strings.Contains(c.Source.Excerpt, "not NVUE JSON") {
		t.Errorf("counters %+v", c.Source)
	}
	if got := dev.Switch.Port("swp2").Counters.Source.Command; got != "nv show interface swp2 counters qos" {
		t.Errorf("swp2 counters from %q", got)
	}
	if got := dev.Switch.LLDP.Source.Command; got != jsonCmd(CmdInterfaceLLDP) {
		t.Errorf("LLDP from %q", got)
	}
}
