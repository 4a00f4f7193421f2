package cumulus

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The switch-wide RoCE output's header is one column off its rule (as NVIDIA prints it) and
// `enable` has only an applied value: cells still land in the right columns.
func TestParseNVKeyTree(t *testing.T) {
	doc := parseNV(verbatim(t, "nv_show_qos_roce.lossless-5.10.txt"))
	got := map[string]string{}
	for _, kv := range doc.kv {
		got[kv.key] = kv.cells["operational"] + "|" + kv.cells["applied"]
	}
	want := map[string]string{
		"enable": "|on", "mode": "lossless|lossless", "congestion-control": "|",
		"congestion-control.congestion-mode": "ECN|", "congestion-control.enabled-tc": "0,3|",
		"congestion-control.max-threshold": "1.43 MB|", "congestion-control.min-threshold": "146.48 KB|",
		"congestion-control.probability": "100|", "lldp-app-tlv": "|", "lldp-app-tlv.priority": "3|",
		"lldp-app-tlv.protocol-id": "4791|", "lldp-app-tlv.selector": "UDP|", "pfc": "|",
		"pfc.pfc-priority": "3|", "pfc.rx-enabled": "enabled|", "pfc.tx-enabled": "enabled|",
		"trust": "|", "trust.trust-mode": "pcp,dscp|",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("key tree (-want +got):\n%s", d)
	}
	if v, _ := doc.value("enable"); v != "on" {
		t.Errorf("enable falls back to applied: %q", v)
	}
	var titles []string
	for _, s := range doc.sections {
		titles = append(titles, s.title)
	}
	if d := cmp.Diff([]string{"RoCE PCP/DSCP->SP mapping configurations", "RoCE SP->TC mapping and ETS configurations",
		"RoCE pool config", "Exception List"}, titles); d != "" {
		t.Errorf("sections: %s", d)
	}
	pool, _ := doc.section("RoCE pool")
	if d := cmp.Diff([]string{"", "name", "mode", "size", "switch-priorities", "traffic-class"}, pool.table.header); d != "" {
		t.Errorf("pool header: %s", d)
	}
	if got := pool.table.rows[1].cells; got[1] != "roce-reserved-ingress" || got[4] != "3" || got[5] != "-" {
		t.Errorf("pool row = %q", got)
	}
	if ex, _ := doc.section("Exception"); len(ex.table.rows) != 0 {
		t.Errorf("\"No Data\" read as rows: %+v", ex.table)
	}
}

// CL 5.15 prints sections right after the key tree, with no blank line, and no trailing
// spaces; the watchdog output has a blank line between its rule and its rows.
func TestParseNVLayouts(t *testing.T) {
	doc := parseNV(verbatim(t, "nv_show_qos_roce.single-ipool-5.15.txt"))
	if v, _ := doc.value("pfc.cable-length"); v != "100" {
		t.Errorf("cable-length = %q", v)
	}
	if len(doc.sections) != 4 {
		t.Errorf("%d sections, want 4", len(doc.sections))
	}
	wd := parseNV(verbatim(t, "nv_show_interface_qos_pfc-watchdog.txt"))
	s, ok := wd.section("PFC WD Status")
	if !ok || len(s.table.rows) != 8 || s.table.rows[7].cells[1] != "DEADLOCK" {
		t.Errorf("watchdog status table = %+v", s)
	}
}

// A blank key cell continues the value above (NVUE wraps long values).
func TestParseNVWrappedValue(t *testing.T) {
	out := "                           operational                    applied\n" +
		"-------------------------  -----------------------------  -------\n" +
		"chassis\n" +
		"  system-description       Cumulus Linux version 5.5.0\n" +
		"                           (i440FX + PIIX, 1996)\n" +
		"  system-name              spine01\n"
	doc := parseNV(out)
	if v, _ := doc.value("chassis.system-description"); v != "Cumulus Linux version 5.5.0 (i440FX + PIIX, 1996)" {
		t.Errorf("wrapped value = %q", v)
	}
	if v, _ := doc.value("chassis.system-name"); v != "spine01" {
		t.Errorf("next key = %q", v)
	}
}

func TestParseNVRepeatedKeys(t *testing.T) {
	doc := parseNV(verbatim(t, "nv_show_qos_pfc_default-global.txt"))
	if d := cmp.Diff([]string{"0"}, doc.values("[switch-priority]")); d != "" {
		t.Error(d)
	}
	if v, _ := doc.value("rx"); v != "disable" {
		t.Errorf("rx = %q", v)
	}
}
