package nxos

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The text table as NX-OS prints it (verbatim rows from a UCS FI and a Nexus 5K, see
// fixtures/README.md): the VL bitmap is a hex CoS mask, (8) CoS 3 and (20) CoS 5.
func TestParsePFCOperText(t *testing.T) {
	out := "    ============================================================\n" +
		"    Port               Mode Oper(VL bmap)  RxPPP      TxPPP\n" +
		"    ============================================================\n\n" +
		"    Ethernet1/1        Auto Off           0          0\n" +
		"    Ethernet1/1/1      Auto On  (8)       0          0\n" +
		"    Ethernet1/51       On   On  (20)      0          150\n" +
		"    Ethernet1/47       Auto Off           7316       762946     \n"
	got, err := ParsePFCOper(out)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]PFCOper{
		"Ethernet1/1":   {Mode: "Auto"},
		"Ethernet1/1/1": {Mode: "Auto", On: true, CoS: []int{3}},
		"Ethernet1/51":  {Mode: "On", On: true, CoS: []int{5}},
		"Ethernet1/47":  {Mode: "Auto"},
	}
	if d := cmp.Diff(want, got, cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Line" }, cmp.Ignore())); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	for _, bad := range []string{"Port Mode Oper(VL bmap) RxPPP TxPPP\nEthernet1/1 Auto Maybe 0 0\n", "Ethernet1/1 Auto On (8) 0 0\n",
		"Port Mode Oper(VL bmap) RxPPP TxPPP\nEthernet1/1 Auto On (zz) 0 0\n"} {
		if _, err := ParsePFCOper(bad); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}

// `| json`: TABLE_module.ROW_module.TABLE_pfc_interface.ROW_pfc_interface, ROW an object for
// one row and an array for several.
func TestParsePFCOperJSON(t *testing.T) {
	one := `{"TABLE_module": {"ROW_module": {"TABLE_pfc_interface": {"ROW_pfc_interface": ` +
		`{"if_name_str": "Ethernet1/1", "admin": "Auto", "oper": "On (8)", "rx-stats": "0", "tx-stats": "0"}}}}}`
	got, err := ParsePFCOper(one)
	if err != nil {
		t.Fatal(err)
	}
	if r := got["Ethernet1/1"]; !r.On || !cmp.Equal(r.CoS, []int{3}) || r.Mode != "Auto" {
		t.Errorf("one-row dict: %+v", got)
	}
	many := `{"TABLE_module": {"ROW_module": [{"TABLE_pfc_interface": {"ROW_pfc_interface": [` +
		`{"if_name_str": "Ethernet1/1", "admin": "Auto", "oper": "Off"}, {"if_name_str": "Ethernet1/2", "admin": "On", "oper": "On"}]}}]}}`
	got, err = ParsePFCOper(many)
	if err != nil {
		t.Fatal(err)
	}
	if r := got["Ethernet1/1"]; r.On || r.CoS != nil {
		t.Errorf("Auto Off: %+v", r)
	}
	if r := got["Ethernet1/2"]; !r.On || r.CoS != nil {
		t.Errorf("On without a bitmap: %+v", r)
	}
	if _, err := ParsePFCOper(`{"TABLE_interface": {}}`); err == nil {
		t.Error("accepted JSON without TABLE_module")
	}
}

// Cisco's AI/ML template (DSCP 24-31 -> qos-group 3, CNP 48 -> qos-group 7 priority level 1)
// with the operational state deciding the mode auto ports.
func TestCollectAIMLTemplate(t *testing.T) {
	sw := collect(t, &fakeRunner{Scenario: "aiml"})
	p := sw.Port("Ethernet1/1")
	if m := p.DSCPToTC.Value; m[24] != 3 || m[26] != 3 || m[31] != 3 || m[32] != 0 || m[48] != 7 {
		t.Errorf("DSCP map: %v", m)
	}
	if s := p.Scheduler.Value; s[7] != "strict" || s[3] != "dwrr" {
		t.Errorf("scheduler: %v", s)
	}
	if !p.ECN.Value[3] || p.PriorityClass != nil {
		t.Errorf("ECN %v, priority class %v", p.ECN.Value, p.PriorityClass)
	}
	if pfc := p.PFC.Value; pfc.Mode != "on" || pfc.Oper != "" || !cmp.Equal(pfc.RX, []int{3}) {
		t.Errorf("static port: %+v", pfc)
	}
	neg := sw.Port("Ethernet1/2").PFC
	if !neg.Usable() || neg.Value.Mode != "auto" || neg.Value.Oper != "on" || !cmp.Equal(neg.Value.RX, []int{3}) {
		t.Errorf("Auto On (8): %+v", neg)
	}
	off := sw.Port("Ethernet1/3")
	if pfc := off.PFC.Value; pfc.Oper != "off" || len(pfc.RX)+len(pfc.TX) != 0 {
		t.Errorf("Auto Off: %+v", pfc)
	}
	if d := off.DCBX.Value; d.Mode != "dcbx" || !cmp.Equal(off.DCBX.Source.Command, "show running-config ipqos + "+CmdPFCOper) {
		t.Errorf("DCBX of an Auto Off port: %+v %+v", d, off.DCBX.Source)
	}
}
