package linux

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/topology"
)

// defaultDSCPMap is dscp -> dscp>>3, the mlx5/mlnx_qos default when trust is dscp.
func defaultDSCPMap() map[int]int {
	m := map[int]int{}
	for d := 0; d < 64; d++ {
		m[d] = d >> 3
	}
	return m
}

func vendorTCs() map[int]string {
	m := map[int]string{}
	for tc := 0; tc < 8; tc++ {
		m[tc] = "vendor"
	}
	return m
}

// mlx5PrioTC is the mlx5 default: priority 0 on tc 1, priority 1 on tc 0, others identity.
func mlx5PrioTC() map[int]int {
	return map[int]int{0: 1, 1: 0, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7}
}

var pfc3 = [8]bool{3: true}

func TestParseMlnxQosFixtures(t *testing.T) {
	tests := []struct {
		name, scenario, file string
		want                 topology.HostQoS
	}{
		{"2023 layout: default priority line, max_buffer_size", "ofed-lossless", "mlnx_qos.ens1f0np0",
			topology.HostQoS{Tool: "mlnx_qos", Trust: "dscp", DSCPToPrio: defaultDSCPMap(), PFC: pfc3, DCBXMode: "os", CableLenM: 7, TCTSA: vendorTCs(), PrioTC: mlx5PrioTC()}},
		{"2017-09 layout with lldpad warning, no buffer line", "dual-port", "mlnx_qos.ens1f0np0",
			topology.HostQoS{Tool: "mlnx_qos", Trust: "dscp", DSCPToPrio: defaultDSCPMap(), PFC: pfc3, DCBXMode: "os", CableLenM: 7, TCTSA: vendorTCs(), PrioTC: mlx5PrioTC()}},
		{"2019 layout: buffer line with trailing comma, trust pcp", "dual-port", "mlnx_qos.ens1f1np1",
			topology.HostQoS{Tool: "mlnx_qos", Trust: "pcp", DCBXMode: "os", CableLenM: 7, TCTSA: vendorTCs(), PrioTC: mlx5PrioTC()}},
		{"2017-06 layout: no DCBX and trust lines", "ipv6-gids-no-rdma", "mlnx_qos.ens6",
			topology.HostQoS{Tool: "mlnx_qos", PFC: pfc3, TCTSA: vendorTCs(), PrioTC: mlx5PrioTC()}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseMlnxQos(readFixture(t, tc.scenario, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// Verbatim copies of public samples (see fixtures/README.md, mlnx_qos), where the blog/commit expanded tabs to spaces.
func TestParseMlnxQosSpaceExpanded(t *testing.T) {
	b8c08c5 := `DCBX mode: OS controlled
Priority trust state: pcp
default priority:
Receive buffer size (bytes): 0,187200,0,0,0,0,0,0,max_buffer_size=2044224
Cable len: 7
PFC configuration:
        priority    0   1   2   3   4   5   6   7
        enabled     0   0   0   0   0   0   0   0
        buffer      1   1   1   1   1   1   1   1
tc: 0 ratelimit: unlimited, tsa: vendor
         priority:  1
tc: 1 ratelimit: unlimited, tsa: vendor
         priority:  0
tc: 2 ratelimit: unlimited, tsa: vendor
         priority:  2
tc: 3 ratelimit: unlimited, tsa: vendor
         priority:  3
tc: 4 ratelimit: unlimited, tsa: vendor
         priority:  4
tc: 5 ratelimit: unlimited, tsa: vendor
         priority:  5
tc: 6 ratelimit: unlimited, tsa: vendor
         priority:  6
tc: 7 ratelimit: unlimited, tsa: vendor
         priority:  7
`
	got, err := ParseMlnxQos(b8c08c5)
	if err != nil {
		t.Fatal(err)
	}
	want := topology.HostQoS{Tool: "mlnx_qos", Trust: "pcp", DCBXMode: "os", CableLenM: 7, TCTSA: vendorTCs(), PrioTC: mlx5PrioTC()}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestParseMlnxQosVariants(t *testing.T) {
	head := "DCBX mode: Firmware controlled\nPriority trust state: dscp\ndscp2prio mapping:\n"
	pfcBlock := "Cable len: 7\nPFC configuration:\n\tpriority    0   1   2   3   4   5   6   7\n\tenabled     0   0   0   1   0   0   0   0   \n"
	tests := []struct {
		name string
		in   string
		want topology.HostQoS
	}{
		{"wrapped dscp2prio rows, firmware DCBX, total_size buffer line, ETS and strict TCs",
			head + "\tprio:0 dscp:07,06,05,04,03,02,01,00,\n" +
				"\tprio:3 dscp:47,46,45,44,43,42,41,40,\n\tprio:3 dscp:31,30,29,28,27,26,25,24,\n" +
				"default priority:\n\tprio:0\n" +
				"Receive buffer size (bytes): 130944,130944,0,0,0,0,0,0,total_size=1027584\n" + pfcBlock +
				"tc: 0 ratelimit: unlimited, tsa: ets, bw: 50%\n\t priority:  0\n\t priority:  1\n" +
				"tc: 3 ratelimit: 25.0 Gbps, tsa: ets, bw: 50%\n\t priority:  3\n" +
				"tc: 6 ratelimit: unlimited, tsa: strict\n\t priority:  6\n",
			topology.HostQoS{Tool: "mlnx_qos", Trust: "dscp", PFC: pfc3, DCBXMode: "firmware", CableLenM: 7,
				DSCPToPrio: map[int]int{0: 0, 1: 0, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0, 7: 0,
					24: 3, 25: 3, 26: 3, 27: 3, 28: 3, 29: 3, 30: 3, 31: 3, 40: 3, 41: 3, 42: 3, 43: 3, 44: 3, 45: 3, 46: 3, 47: 3},
				TCTSA:  map[int]string{0: "ets", 3: "ets", 6: "strict"},
				PrioTC: map[int]int{0: 0, 1: 0, 3: 3, 6: 6}}},
		{"trust unsupported warnings, no tc blocks",
			"Priority trust state is not supported on your system\nBuffers commands are not supported on your system\n" +
				"DCBX mode: OS controlled\nPriority trust state: none\n" + pfcBlock,
			topology.HostQoS{Tool: "mlnx_qos", Trust: "none", PFC: pfc3, DCBXMode: "os", CableLenM: 7}},
		{"cable length set with mlnx_qos --cable_len",
			"DCBX mode: OS controlled\nPriority trust state: pcp\nCable len: 30\n" + strings.TrimPrefix(pfcBlock, "Cable len: 7\n"),
			topology.HostQoS{Tool: "mlnx_qos", Trust: "pcp", PFC: pfc3, DCBXMode: "os", CableLenM: 30}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseMlnxQos(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestParseMlnxQosErrors(t *testing.T) {
	pfc := "PFC configuration:\n\tpriority    0   1   2   3   4   5   6   7\n\tenabled     0   0   0   1   0   0   0   0   \n"
	for name, in := range map[string]string{
		"usage":                  "Interface name is required\nUsage: mlnx_qos -i <interface> [options]\n",
		"traceback":              "Traceback (most recent call last):\n  File \"/usr/sbin/mlnx_qos\", line 40, in <module>\nImportError: No module named dcbnetlink\n",
		"no enabled row":         "DCBX mode: OS controlled\nPFC configuration:\n\tpriority    0   1   2   3   4   5   6   7\n",
		"seven values":           "PFC configuration:\n\tenabled     0   0   0   1   0   0   0\n",
		"enabled value 2":        "PFC configuration:\n\tenabled     0   0   0   2   0   0   0   0\n",
		"unknown DCBX mode":      "DCBX mode: auto\n" + pfc,
		"DSCP 64":                "Priority trust state: dscp\ndscp2prio mapping:\n\tprio:3 dscp:64,\n" + pfc,
		"priority 8":             "Priority trust state: dscp\ndscp2prio mapping:\n\tprio:8 dscp:26,\n" + pfc,
		"dscp without rows":      "Priority trust state: dscp\ndscp2prio mapping:\n" + pfc,
		"stray prio row":         "Cable len: 7\n\tprio:3 dscp:26,\n" + pfc,
		"bad tc line":            pfc + "tc: 9 ratelimit: unlimited, tsa: vendor\n",
		"cable len not a number": "Cable len: 7m\n" + pfc,
		"bad priority under tc":  pfc + "tc: 0 ratelimit: unlimited, tsa: vendor\n\t priority:  x\n",
	} {
		t.Run(name, func(t *testing.T) {
			got, err := ParseMlnxQos(in)
			if err == nil {
				t.Fatalf("want an error, got %+v", got)
			}
			if !strings.Contains(err.Error(), "mlnx_qos") {
				t.Errorf("error %q does not name mlnx_qos", err)
			}
		})
	}
}
