package sonic

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseTablesCutsAtRuleColumns(t *testing.T) {
	tables := parseTables(verbatim(t, "show_lldp_table.txt"))
	if len(tables) != 1 {
		t.Fatalf("got %d tables, want 1 (the closing dash line is not a table)", len(tables))
	}
	got := tables[0]
	want := textTable{
		header: []string{"LocalPort", "RemoteDevice", "RemotePortID", "Capability", "RemotePortDescr"},
		rows: []textRow{
			{cells: []string{"Ethernet112", "T1-1", "hundredGigE1/2", "BR", "T0-2:hundredGigE1/29"}},
			{cells: []string{"Ethernet116", "T1-2", "hundredGigE1/2", "BR", "T0-2:hundredGigE1/30"}},
			{cells: []string{"eth0", "swtor-b2lab2-1610", "GigabitEthernet 0/2", "OBR", ""}},
		},
	}
	if d := cmp.Diff(want, got, cmp.AllowUnexported(textTable{}, textRow{}), cmp.FilterPath(func(p cmp.Path) bool {
		return p.Last().String() == ".line"
	}, cmp.Ignore())); d != "" {
		t.Errorf("table (-want +got):\n%s", d)
	}
}

func TestParseTablesRightAlignedAndTwoTables(t *testing.T) {
	tables := parseTables(verbatim(t, "show_pfc_counters.txt"))
	if len(tables) != 2 {
		t.Fatalf("got %d tables, want 2", len(tables))
	}
	if tables[0].header[0] != "Port Rx" || tables[1].header[0] != "Port Tx" {
		t.Errorf("headers %q / %q", tables[0].header[0], tables[1].header[0])
	}
	if got := tables[1].rows[2].cells; got[0] != "Ethernet8" || got[1] != "1,810" || got[8] != "817" {
		t.Errorf("last Tx row = %q", got)
	}
}
