package reports

import (
	"time"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
	"github.com/roceaudit/roceaudit/waivers"
)

// sampleReport is one realistic audit of a small lab fabric: two hosts and four switches, one
// of them unreachable, failures with evidence and remediation, an error, a warning, a skip, a
// waiver, passes, one path with two equal-cost routes and one lossy transfer. Evidence excerpts
// follow public device formats (see fixtures/README.md, "Golden reports").
func sampleReport() *Report {
	start := time.Date(2026, 3, 2, 9, 15, 4, 0, time.UTC)
	const pathID = "gpu01:ens1f0np0->gpu02:ens1f0np0"
	pass := func(check, device, iface, actual string) checks.Result {
		sev := checks.Critical
		return checks.Result{Check: check, Status: checks.Pass, Severity: sev, Device: device, Interface: iface, Actual: actual}
	}
	results := []checks.Result{
		// Results arrive in engine order, not report order: renderers must sort.
		{
			Check: "COLLECT-REACH", Status: checks.Error, Severity: checks.Critical, Device: "spine2",
			Expected: "SSH connect, authentication and host key OK",
			Actual:   "host key mismatch",
			Message:  "could not audit spine2: the host key does not match known_hosts",
			Evidence: &topology.Evidence{Error: "ssh: handshake failed: knownhosts: key mismatch"},
			Remediation: "Verify spine2's host key out of band, then replace its line in ~/.ssh/known_hosts:\n" +
				"ssh-keygen -R 10.0.2.2",
		},
		{
			Check: "HOST-PFC", Status: checks.Fail, Severity: checks.Critical, Device: "gpu01", Interface: "ens1f0np0",
			Peer: "leaf1:Ethernet0", Expected: "PFC on priority 3 only", Actual: "PFC on priorities 3,4",
			Message: "PFC is enabled on priority 4 as well as on the RoCE priority 3",
			Evidence: &topology.Evidence{Command: "mlnx_qos -i ens1f0np0", Excerpt: "DCBX mode: OS controlled\n" +
				"Priority trust state: dscp\n" +
				"Cable len: 7\n" +
				"PFC configuration:\n" +
				"\tpriority    0   1   2   3   4   5   6   7\n" +
				"\tenabled     0   0   0   1   1   0   0   0   \n" +
				"\tbuffer      0   0   0   1   1   0   0   0   \n" +
				"tc: 0 ratelimit: unlimited, tsa: vendor\n" +
				"\t priority:  1\n"},
			Remediation: "mlnx_qos -i ens1f0np0 --pfc 0,0,0,1,0,0,0,0",
		},
		pass("HOST-MTU", "gpu01", "ens1f0np0", "9000"),
		pass("HOST-RDMA-PORT", "gpu01", "ens1f0np0", "mlx5_0 port 1 PORT_ACTIVE, Ethernet"),
		pass("HOST-GID-V2", "gpu01", "ens1f0np0", "RoCE v2 GID index 3 for 192.168.1.11"),
		pass("HOST-TRUST", "gpu01", "ens1f0np0", "dscp"),
		pass("HOST-PAUSE", "gpu01", "ens1f0np0", "RX off, TX off"),
		{
			Check: "HOST-TOS", Status: checks.Warn, Severity: checks.Warning, Device: "gpu01", Interface: "ens1f0np0",
			Expected: "default RoCE ToS in 104, 106", Actual: "unreadable without creating the rdma_cm configfs directory",
			Message: "cannot read the RDMA-CM default ToS read-only; applications must set it themselves",
			Evidence: &topology.Evidence{Command: "cat /sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos",
				Error: "cat: /sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos: No such file or directory"},
		},
		pass("HOST-MTU", "gpu01", "ens1f1np1", "9000"),
		pass("HOST-PFC", "gpu01", "ens1f1np1", "PFC on priority 3 only"),
		pass("COLLECT-REACH", "gpu01", "", ""),
		pass("COLLECT-REACH", "gpu02", "", ""),
		{
			Check: "HOST-PAUSE", Status: checks.Fail, Severity: checks.SevError, Device: "gpu02", Interface: "ens1f0np0",
			Expected: "RX off, TX off", Actual: "RX on, TX on",
			Message: "802.3x global pause is on; it pauses every priority and defeats PFC",
			Evidence: &topology.Evidence{Command: "ethtool -a ens1f0np0", Excerpt: "Pause parameters for ens1f0np0:\n" +
				"Autonegotiate:\toff\nRX:\t\ton\nTX:\t\ton\n"},
			Remediation: "ethtool -A ens1f0np0 autoneg off rx off tx off",
		},
		pass("HOST-MTU", "gpu02", "ens1f0np0", "9000"),
		pass("HOST-PFC", "gpu02", "ens1f0np0", "PFC on priority 3 only"),
		pass("COLLECT-REACH", "leaf1", "", ""),
		{
			Check: "SW-PFC", Status: checks.Fail, Severity: checks.Critical, Device: "leaf1", Interface: "Ethernet0",
			Peer: "gpu01:ens1f0np0", Expected: "PFC on priority 3 only", Actual: "PFC on priorities 3,4",
			Message: "lossless priorities 3,4 on Ethernet0; only 3 carries RoCE",
			Evidence: &topology.Evidence{Command: "show pfc priority", Excerpt: "\nInterface    Lossless priorities\n" +
				"-----------  ---------------------\nEthernet0    3,4\nEthernet4    3,4\nEthernet8    3\n"},
			Remediation: "sudo pfc config priority off 4 Ethernet0\nsudo config save -y",
		},
		{
			Check: "SW-DCBX", Status: checks.Waived, Severity: checks.Warning, Device: "leaf1", Interface: "Ethernet0",
			Expected: "static", Actual: "dcbx", Message: "waived until 2026-06-30 (NET-1234: host side migrates first)",
		},
		{
			Check: "SW-BUFFER", Status: checks.Skip, Severity: checks.Info, Device: "leaf1", Interface: "Ethernet8",
			Message: "not applicable: no lossless buffer profile is readable on this SONiC virtual switch",
		},
		pass("SW-MTU", "leaf1", "Ethernet8", "9216"),
		pass("SW-PFC", "leaf1", "Ethernet8", "PFC on priority 3 only"),
		pass("SW-MTU", "leaf1", "Ethernet0", "9216"),
		pass("LINK-MTU", "leaf1", "Ethernet8", "9216 / 9214 (EOS IP MTU)"),
		pass("COLLECT-REACH", "spine1", "", ""),
		pass("SW-MTU", "spine1", "Ethernet1", "9214 (EOS IP MTU, same class as 9216)"),
		pass("SW-MTU", "spine1", "Ethernet2", "9214 (EOS IP MTU, same class as 9216)"),
		pass("COLLECT-REACH", "leaf2", "", ""),
		pass("SW-PFC", "leaf2", "swp51", "PFC on priority 3 only"),
		pass("SW-PFC", "leaf2", "swp1", "PFC on priority 3 only"),
		{
			Check: "XFER-RUN", Status: checks.Error, Severity: checks.Critical, Device: "gpu02", Interface: "ens1f0np0",
			Path: "gpu02:ens1f0np0->gpu01:ens1f0np0", Expected: "ib_write_bw completes with the RoCE v2 GID index at both ends",
			Actual: "did not run", Message: "perftest: perftest is not installed: ib_write_bw is not on the host",
			Evidence: &topology.Evidence{Command: "command -v ib_write_bw", Error: "perftest: perftest is not installed: ib_write_bw is not on the host"},
		},
		{Check: "PATH-RESOLVED", Status: checks.Pass, Severity: checks.Critical, Path: pathID, Actual: "2 equal-cost paths"},
		{
			Check: "XFER-BW", Status: checks.Fail, Severity: checks.SevError, Path: pathID,
			Expected: ">= 90 Gb/s (0.9 x 100 Gb/s)", Actual: "41.3 Gb/s",
			Message: "the test transfer reached 41% of the slowest link",
			Evidence: &topology.Evidence{Command: "ib_write_bw -d mlx5_0 -x 3 -F --report_gbits -D 5 192.168.1.12", Excerpt: "" +
				" #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n" +
				" 65536      78773            0.00               41.30                0.078773\n"},
			Remediation: "Fix the failed PFC and pause checks on this path, then rerun: roceaudit transfer -i INV gpu01:ens1f0np0 gpu02:ens1f0np0",
		},
	}
	r := &Report{
		Schema:      Schema,
		ToolVersion: "0.1.0-test",
		Started:     start,
		Finished:    start.Add(12345 * time.Millisecond),
		Simulated:   true,
		Note:        `lab scenario "broken" on 127.0.0.1`,
		Recipe:      recipe.Default(),
		Devices: []DeviceSummary{
			{Name: "gpu01", Platform: "linux", Role: topology.RoleHost, Reachable: true},
			{Name: "gpu02", Platform: "linux", Role: topology.RoleHost, Reachable: true},
			{Name: "leaf1", Platform: "sonic", Role: topology.RoleSwitch, Reachable: true},
			{Name: "leaf2", Platform: "cumulus", Role: topology.RoleSwitch, Reachable: true},
			{Name: "spine1", Platform: "eos", Role: topology.RoleSwitch, Reachable: true},
			{Name: "spine2", Platform: "nxos", Role: topology.RoleSwitch, Reachable: false,
				Error: "ssh: handshake failed: knownhosts: key mismatch"},
		},
		Paths: []Path{{
			From: "gpu01:ens1f0np0", To: "gpu02:ens1f0np0",
			Paths: [][]Hop{
				{
					{Device: "gpu01", OutPort: "ens1f0np0"},
					{Device: "leaf1", InPort: "Ethernet0", OutPort: "Ethernet8"},
					{Device: "spine1", InPort: "Ethernet1", OutPort: "Ethernet2"},
					{Device: "leaf2", InPort: "swp51", OutPort: "swp1"},
					{Device: "gpu02", InPort: "ens1f0np0"},
				},
				{
					{Device: "gpu01", OutPort: "ens1f0np0"},
					{Device: "leaf1", InPort: "Ethernet0", OutPort: "Ethernet12"},
					{Device: "spine2", InPort: "Ethernet1/1", OutPort: "Ethernet1/2"},
					{Device: "leaf2", InPort: "swp52", OutPort: "swp1"},
					{Device: "gpu02", InPort: "ens1f0np0"},
				},
			},
		}},
		Transfers: []Transfer{{
			From: "gpu01:ens1f0np0", To: "gpu02:ens1f0np0",
			GIDIndex:      map[string]int{"from": 3, "to": 3},
			BandwidthGbps: 41.3, LinkGbps: 100,
			LatencyUS: &Latency{Typical: 2.1, P99: 3.4},
			Hops: []HopCounters{
				{Device: "leaf1", Interface: "Ethernet0", CounterDeltas: map[string]int64{"pfc_rx_pause_prio3": 1840, "pfc_rx_pause_prio4": 0}},
				{Device: "spine1", Interface: "Ethernet1", CounterDeltas: map[string]int64{"rxPause": 0}},
				{Device: "gpu02", Interface: "ens1f0np0", CounterDeltas: map[string]int64{"out_of_sequence": 212, "packet_seq_err": 0, "rx_prio3_pause": 0}},
			},
		}, {
			From: "gpu02:ens1f0np0", To: "gpu01:ens1f0np0", GIDIndex: map[string]int{},
			Error: "perftest: perftest is not installed: ib_write_bw is not on the host",
		}},
		Results: results,
		Ports: []PortFacts{
			{Device: "gpu01", Interface: "ens1f0np0", MTU: "9000", PFC: "3,4", Trust: "dscp", DCBX: "os"},
			{Device: "leaf1", Interface: "Ethernet0", MTU: "9216", PFC: "3,4", Trust: "dscp", DCBX: "static"},
			{Device: "leaf1", Interface: "Ethernet8", MTU: "9216", PFC: "3", Trust: "dscp", DCBX: "static"},
			{Device: "spine1", Interface: "Ethernet1", MTU: "9214", PFC: "3", Trust: "dscp", DCBX: "static"},
			{Device: "spine1", Interface: "Ethernet2", MTU: "9214", PFC: "3", Trust: "dscp", DCBX: "static"},
			{Device: "leaf2", Interface: "swp51", MTU: "9216", PFC: "3", Trust: "dscp", DCBX: "static"},
			{Device: "leaf2", Interface: "swp1", MTU: "9216", PFC: "3", Trust: "dscp", DCBX: "static"},
			{Device: "gpu02", Interface: "ens1f0np0", MTU: "9000", PFC: "3", Trust: "dscp", DCBX: "os"},
		},
		Waivers: &WaiverUse{File: "waivers.yaml", Applied: 1,
			Expired: []waivers.Waiver{{Check: "HOST-TOS", Reason: "applications set their own ToS", Expires: "2026-01-31", Line: 9}},
			Unused:  []waivers.Waiver{{Check: "SW-MTU", Device: "spine9", Reason: "decommissioned", Expires: "2027-01-01", Owner: "netops", Line: 13}},
		},
	}
	r.Summary = Summarize(r.Results)
	return r
}
