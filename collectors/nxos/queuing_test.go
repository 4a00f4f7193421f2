package nxos

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

func TestParseQueuingJSON(t *testing.T) {
	q, err := ParseQueuing(fixture(t, "healthy", CmdQueuingJSON))
	if err != nil {
		t.Fatal(err)
	}
	if len(q) != 4 {
		t.Errorf("ports %d, want the 4 Egress rows (Ingress rows carry no queue counters)", len(q))
	}
	got := pick(q["Ethernet1/1"], "queue3_tx_packets", "queue3_tx_bytes", "queue3_drops", "queue3_ecn_marked_packets", "queue6_tx_packets")
	want := map[string]int64{"queue3_tx_packets": 202328436, "queue3_tx_bytes": 203884632744, "queue3_drops": 0,
		"queue3_ecn_marked_packets": 1843, "queue6_tx_packets": 1659}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Ethernet1/1 (-want +got):\n%s", d)
	}
	for k := range q["Ethernet1/1"] {
		if strings.Contains(k, "depth") || !strings.HasPrefix(k, "queue") {
			t.Errorf("counter %q: Q Depth is a gauge, CONTROL/SPAN are not queues", k)
		}
	}
}

// Every ROW_* is an object when it holds one row; numbers may be JSON numbers.
func TestParseQueuingJSONOneRow(t *testing.T) {
	out := `{"TABLE_module":{"ROW_module":{"TABLE_queuing_interface":{"ROW_queuing_interface":{"dir":"Egress","if_name_str":"Ethernet1/7",` +
		`"TABLE_qosgrp_egress_stats":{"ROW_qosgrp_egress_stats":{"eq-qosgrp":3,"TABLE_qosgrp_egress_stats_entry":` +
		`{"ROW_qosgrp_egress_stats_entry":{"eq-stat-type":"WRED/AFD & Tail Drop","eq-stat-units":"Pkts","eq-uc-stat-value":4410,"eq-mc-stat-value":"7"}}}}}}}}}`
	q, err := ParseQueuing(out)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(map[string]QueueCounters{"Ethernet1/7": {"queue3_drops": 4410}}, q); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestParseQueuingText(t *testing.T) {
	q, err := ParseQueuing(fixture(t, "broken", CmdQueuing))
	if err != nil {
		t.Fatal(err)
	}
	if len(q) != 10 {
		t.Errorf("ports %d, want 10", len(q))
	}
	got := pick(q["Ethernet1/4"], "queue3_drops", "queue3_drop_bytes", "queue3_tx_packets", "queue3_tx_bytes", "queue0_tx_packets", "queue3_watchdog_drops")
	want := map[string]int64{"queue3_drops": 18204, "queue3_drop_bytes": 18785528, "queue3_tx_packets": 90331877,
		"queue3_tx_bytes": 91054132016, "queue0_tx_packets": 31022, "queue3_watchdog_drops": 0}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Ethernet1/4 (-want +got):\n%s", d)
	}
	if len(q["Ethernet1/4"]) != 8*5 {
		t.Errorf("%d counters, want 5 per qos-group (the CONTROL QOS GROUP box and Q Depth are not counters)", len(q["Ethernet1/4"]))
	}
}

func TestParseQueuingRejects(t *testing.T) {
	for name, out := range map[string]string{
		"refusal":      "                  ^\n% Invalid command at '^' marker.\n",
		"no egress":    "Ingress Queuing for Ethernet1/1\nPer Port Ingress Statistics\n",
		"no module":    `{"TABLE_other":{}}`,
		"bad group":    `{"TABLE_module":{"ROW_module":{"TABLE_queuing_interface":{"ROW_queuing_interface":{"dir":"Egress","if_name_str":"Ethernet1/1","TABLE_qosgrp_egress_stats":{"ROW_qosgrp_egress_stats":{"eq-qosgrp":"9"}}}}}}}`,
		"no if name":   `{"TABLE_module":{"ROW_module":{"TABLE_queuing_interface":{"ROW_queuing_interface":{"dir":"Egress"}}}}}`,
		"bad value":    `{"TABLE_module":{"ROW_module":{"TABLE_queuing_interface":{"ROW_queuing_interface":{"dir":"Egress","if_name_str":"Ethernet1/1","TABLE_qosgrp_egress_stats":{"ROW_qosgrp_egress_stats":{"eq-qosgrp":"3","TABLE_qosgrp_egress_stats_entry":{"ROW_qosgrp_egress_stats_entry":{"eq-stat-type":"Tx","eq-stat-units":"Pkts","eq-uc-stat-value":"n/a"}}}}}}}}}`,
		"text group 9": "Egress Queuing for Ethernet1/1 [System]\n|                              QOS GROUP 9                    |\n",
	} {
		if _, err := ParseQueuing(out); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
}

// A switch that refuses `| json` for the queuing command is read from its text form, and the
// counters name the command that answered.
func TestQueuingFallsBackToText(t *testing.T) {
	r := &fakeRunner{Scenario: "healthy", Override: map[string]collectors.Output{
		CmdQueuingJSON: {Stdout: "                         ^\n% Invalid command at '^' marker.\n"},
		CmdQueuing:     {Stdout: fixture(t, "broken", CmdQueuing)},
	}}
	dev := &topology.Device{}
	if err := (Platform{}).Collect(context.Background(), r, inventory.DeviceSpec{}, dev); err != nil {
		t.Fatal(err)
	}
	if want := append(append([]string(nil), commands...), CmdQueuing); !cmp.Equal(want, r.Sent) {
		t.Errorf("sent %q, want %q", r.Sent, want)
	}
	c := dev.Switch.Port("Ethernet1/1").Counters
	if c.Source.Command != CmdInterface+" + "+CmdQueuing || c.Value["queue3_tx_packets"] != 90331877 {
		t.Errorf("counters %+v", c)
	}
}

// Without either form the pause and traffic counters still stand, and the evidence says why the queues
// are missing.
func TestQueuingUnreadable(t *testing.T) {
	r := &fakeRunner{Scenario: "healthy", Override: map[string]collectors.Output{
		CmdQueuingJSON: {Stdout: "{not json"},
		CmdQueuing:     {ExitCode: 1, Stderr: "% Permission denied"},
	}}
	dev := &topology.Device{}
	if err := (Platform{}).Collect(context.Background(), r, inventory.DeviceSpec{}, dev); err != nil {
		t.Fatal(err)
	}
	c := dev.Switch.Port("Ethernet1/1").Counters
	if !c.Usable() || len(c.Value) != 6 || c.Value["tx_bytes"] != 70233419027 || c.Source.Command != CmdInterface ||
		!strings.Contains(c.Source.Excerpt, "no queue counters") || !strings.Contains(c.Source.Excerpt, "Permission denied") {
		t.Errorf("counters %+v", c)
	}
}
