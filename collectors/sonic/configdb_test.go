package sonic

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseRunningConfigSingleASIC(t *testing.T) {
	db := mustDB(t, verbatim(t, "config_db_3_0_3.json"))
	if len(db.Namespaces) != 0 {
		t.Errorf("namespaces = %v, want none", db.Namespaces)
	}
	if v, _ := db.Field("PORT", "Ethernet0", "mtu"); v != "9100" {
		t.Errorf("PORT|Ethernet0 mtu = %q", v)
	}
	if v, _ := db.Field("BUFFER_PG", "Ethernet0|3-4", "profile"); v != "pg_lossless_100000_40m_profile" {
		t.Errorf("BUFFER_PG|Ethernet0|3-4 profile = %q", v)
	}
	if v, _ := db.Field("TC_TO_QUEUE_MAP", "AZURE", "7"); v != "7" {
		t.Errorf("TC_TO_QUEUE_MAP|AZURE 7 = %q", v)
	}
}

func TestParseRunningConfigSkipsBgprawAndJoinsLists(t *testing.T) {
	out := `{"PORT": {"Ethernet0": {"mtu": "9216"}},
	         "VLAN": {"Vlan1000": {"members": ["Ethernet4", "Ethernet8"], "vlanid": "1000"}},
	         "bgpraw": "!\nrouter bgp 65100\n!"}`
	db := mustDB(t, out)
	if v, _ := db.Field("VLAN", "Vlan1000", "members"); v != "Ethernet4,Ethernet8" {
		t.Errorf("list field = %q", v)
	}
	if _, ok := db.Tables["bgpraw"]; ok {
		t.Error("bgpraw kept as a table")
	}
}

// Multi-ASIC output is a dict of namespaces (show/main.py); front-panel ports live in the asic
// namespaces and are merged.
func TestParseRunningConfigMultiASIC(t *testing.T) {
	out := `{
	  "localhost": {"DEVICE_METADATA": {"localhost": {"hwsku": "multi-asic"}}},
	  "asic0": {"PORT": {"Ethernet0": {"mtu": "9100"}}, "DSCP_TO_TC_MAP": {"AZURE": {"26": "1"}}},
	  "asic1": {"PORT": {"Ethernet64": {"mtu": "9216"}}, "DSCP_TO_TC_MAP": {"AZURE": {"26": "1"}}}
	}`
	db := mustDB(t, out)
	if d := cmp.Diff([]string{"asic0", "asic1", "localhost"}, db.Namespaces); d != "" {
		t.Error(d)
	}
	if len(db.Tables["PORT"]) != 2 {
		t.Errorf("PORT = %v, want Ethernet0 and Ethernet64", db.Tables["PORT"])
	}
	if v, _ := db.Field("DEVICE_METADATA", "localhost", "hwsku"); v != "multi-asic" {
		t.Errorf("hwsku = %q", v)
	}
}

func TestParseRunningConfigErrors(t *testing.T) {
	for name, out := range map[string]string{
		"not json":       "Usage: show [OPTIONS] COMMAND [ARGS]...\nError: No such command \"runningconfiguration\".",
		"empty":          "",
		"null":           "null",
		"no PORT":        `{"DEVICE_METADATA": {"localhost": {"hwsku": "x"}}}`,
		"PORT not table": `{"PORT": "Ethernet0"}`,
		"bad namespace":  `{"asic0": ["PORT"]}`,
	} {
		_, err := ParseRunningConfig(out)
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		if !strings.HasPrefix(err.Error(), CmdRunningConfig+": ") {
			t.Errorf("%s: error %q does not name the command", name, err)
		}
	}
}

func TestRef(t *testing.T) {
	for in, want := range map[string]string{
		"AZURE": "AZURE", "[DSCP_TO_TC_MAP|AZURE]": "AZURE", "[SCHEDULER|scheduler.1]": "scheduler.1",
		" [WRED_PROFILE|AZURE_LOSSLESS] ": "AZURE_LOSSLESS", "NULL": "NULL", "": "",
	} {
		if got := Ref(in); got != want {
			t.Errorf("Ref(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseIDs(t *testing.T) {
	got, err := parseIDs("0,1,5-6")
	if err != nil || !cmp.Equal(got, []int{0, 1, 5, 6}) {
		t.Errorf("parseIDs = %v, %v", got, err)
	}
	for _, bad := range []string{"", "x", "4-3", "3-", "-1", "0-1000"} {
		if _, err := parseIDs(bad); err == nil {
			t.Errorf("parseIDs(%q): no error", bad)
		}
	}
	if _, err := priorities("3,8"); err == nil {
		t.Error("priority 8 accepted")
	}
}
