package fixturename

import "testing"

func TestFile(t *testing.T) {
	for cmd, want := range map[string]string{
		"show interfaces | json":                     "show_interfaces_json.txt",
		"show running-config ipqos":                  "show_running-config_ipqos.txt",
		"show lldp neighbors detail | json":          "show_lldp_neighbors_detail_json.txt",
		"nv show interface swp1 qos pfc":             "nv_show_interface_swp1_qos_pfc.txt",
		"show priority-flow-control counters | json": "show_priority-flow-control_counters_json.txt",
		"show queue counters --all":                  "show_queue_counters_--all.txt",
		"nv show interface swp1s0/1 link":            "nv_show_interface_swp1s0_1_link.txt",
		"  ../etc/passwd  ":                          "etc_passwd.txt",
	} {
		if got := File(cmd); got != want {
			t.Errorf("File(%q) = %q, want %q", cmd, got, want)
		}
	}
}
