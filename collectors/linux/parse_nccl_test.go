package linux

import "testing"

func TestParseNCCLConf(t *testing.T) {
	tests := []struct {
		name string
		in   string
		idx  int
		set  bool
	}{
		{"fixture", readFixture(t, "ofed-lossless", "nccl.conf"), 3, true},
		{"fixture with comments", readFixture(t, "inbox-dcb", "nccl.conf"), 3, true},
		{"commented out", "#NCCL_IB_GID_INDEX=3\nNCCL_DEBUG=INFO\n", 0, false},
		{"quoted, spaced, last wins", "NCCL_IB_GID_INDEX = 1\nNCCL_IB_GID_INDEX=\"5\"\n", 5, true},
		{"lines without = skipped", "export\nNCCL_IB_GID_INDEX=7\n", 7, true},
		{"empty", "", 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			idx, set, err := ParseNCCLConf(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if idx != tc.idx || set != tc.set {
				t.Errorf("got %d set=%v, want %d set=%v", idx, set, tc.idx, tc.set)
			}
		})
	}
	for _, in := range []string{"NCCL_IB_GID_INDEX=three\n", "NCCL_IB_GID_INDEX=-1\n", "NCCL_IB_GID_INDEX=\n"} {
		if idx, set, err := ParseNCCLConf(in); err == nil {
			t.Errorf("ParseNCCLConf(%q) = %d,%v, want an error", in, idx, set)
		}
	}
}

func TestParseSystemctlActive(t *testing.T) {
	for in, want := range map[string]bool{"active\n": true, "inactive\n": false, "unknown\n": false, "failed\n": false, "activating\n": true} {
		got, err := ParseSystemctlActive(in)
		if err != nil || got != want {
			t.Errorf("ParseSystemctlActive(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "System has not been booted with systemd as init system (PID 1). Can't operate.\n"} {
		if _, err := ParseSystemctlActive(in); err == nil {
			t.Errorf("ParseSystemctlActive(%q): want an error", in)
		}
	}
}
