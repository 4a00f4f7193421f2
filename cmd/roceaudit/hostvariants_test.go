package main

// Host shapes of real deployments end to end (lab scenario host-variants): a RoCE LAG host
// whose slave PFs face two leaves, a host without systemd, a host whose login environment
// sets NCCL_IB_TC, an 8-rail host. The demo over SSH must report exactly the planted faults
// and their consequences, and say where each comes from.

import (
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/lab"
)

// finding is one expected non-pass result and what its fields must say ("" asserts nothing).
type finding struct {
	key                               string
	message, actual, command, excerpt string
}

func TestHostVariantsExactVerdicts(t *testing.T) {
	want := []finding{
		// The second slave PF of gpu03's RoCE LAG has PFC on priority 4: judged on that slave,
		// and the link to leaf2 (found through the slave's own LLDP) disagrees with the switch.
		{key: "fail HOST-PFC gpu03:ens1f1np1", actual: "PFC on priority 4",
			message: "slave PF ens1f1np1 of RoCE LAG bond bond0", command: "mlnx_qos -i ens1f1np1"},
		{key: "fail LINK-PFC gpu03:ens1f1np1", message: "the two ends of the link do not agree on PFC"},
		// gpu04 has no systemd: systemctl cannot answer, pgrep finds lldpad running.
		{key: "fail HOST-DCBX gpu04:ens1f0np0", actual: "lldpad is active",
			command: "pgrep -x lldpad", excerpt: "System has not been booted with systemd"},
		{key: "fail HOST-DCBX gpu04:ens1f1np1", actual: "lldpad is active",
			command: "pgrep -x lldpad", excerpt: "System has not been booted with systemd"},
		// /etc/environment's NCCL_IB_TC=0 decides what NCCL sends on every RDMA device.
		{key: "fail HOST-APP-TC gpu05:ens1f0np0", message: "set NCCL_IB_TC to 106",
			actual: "ToS 0 (DSCP 0) from NCCL_IB_TC in /etc/environment", excerpt: "/etc/environment:NCCL_IB_TC=0"},
		{key: "fail HOST-APP-TC gpu05:ens1f1np1", message: "set NCCL_IB_TC to 106",
			actual: "ToS 0 (DSCP 0) from NCCL_IB_TC in /etc/environment", excerpt: "/etc/environment:NCCL_IB_TC=0"},
		// Rail 3 of the 8-rail host at MTU 1500: RoCE then runs at active_mtu 1024 there.
		{key: "fail HOST-MTU gpu06:ens3np0", actual: "1500"},
		{key: "fail HOST-ROCE-MTU gpu06:ens3np0", message: "netdev MTU 1500 only allows active_mtu 1024"},
		// gpu02's first NIC keeps the mlx5 driver's 8000 ms storm timeout against leaf1's 200 ms
		// watchdog (the link is reported from leaf1's end, where LLDP found it).
		{key: "warn LINK-PFC-STORM leaf1:Ethernet4", actual: "gpu02:ens1f0np0 pfc-prevention-tout 8000 ms; leaf1:Ethernet4 watchdog detection 200 ms",
			message: "the storm restarts in the fabric about 19 times", command: "ethtool --get-tunable ens1f0np0 pfc-prevention-tout"},
		// gpu01's first NIC was never told its cable: it sizes for mlx5's 7 m, leaf1 for 40 m.
		{key: "warn SW-HEADROOM leaf1:Ethernet0", message: "the switch sizes for 40 m (CABLE_LENGTH), gpu01:ens1f0np0's NIC for 7 m (mlnx_qos Cable len)",
			excerpt: "Cable len: 7"},
		// gpu02's second NIC is a slow receiver: the rail host's transfer into it is paused a
		// fifth of the time, from there (the culprit) back to the sender (victims), and runs slow.
		{key: "warn XFER-PAUSE gpu02:ens1f1np1 gpu06:ens1np0->gpu02:ens1f1np1", actual: "throttled by PFC: culprit gpu02:ens1f1np1",
			message: "victims paused upstream: gpu06:ens1np0, leaf1:Ethernet36, leaf2:swp2", excerpt: "gpu02:ens1f1np1 rx_prio3_pause +0 tx_prio3_pause +"},
		{key: "fail XFER-BW gpu06:ens1np0 gpu06:ens1np0->gpu02:ens1f1np1",
			message: "nothing was lost, but gpu02:ens1f1np1 paused the transfer with PFC (XFER-PAUSE)"},
	}
	code, out, errs := run(t, "demo", "--scenario", lab.ScenarioHostVariants, "--format", "json")
	if code != exitFailed {
		t.Fatalf("exit %d, want %d; stderr %s", code, exitFailed, errs)
	}
	rep := decodeReport(t, out)
	byKey := map[string]finding{}
	var wantKeys []string
	for _, f := range want {
		wantKeys = append(wantKeys, f.key)
		byKey[f.key] = f
	}
	sort.Strings(wantKeys)
	if diff := cmp.Diff(wantKeys, keys(rep, checks.Fail, checks.Error, checks.Warn)); diff != "" {
		t.Fatalf("findings differ (-want +got):\n%s", diff)
	}
	status, actual := map[string]checks.Status{}, map[string]string{}
	for _, r := range rep.Results {
		status[r.Check+" "+r.Device+":"+r.Interface] = r.Status
		actual[r.Check+" "+r.Device+":"+r.Interface] = r.Actual
		f, ok := byKey[resultKey(r)]
		if !ok {
			continue
		}
		var command, excerpt string
		if r.Evidence != nil {
			command, excerpt = r.Evidence.Command, r.Evidence.Excerpt
		}
		for _, c := range [][3]string{{"message", r.Message, f.message}, {"actual", r.Actual, f.actual},
			{"evidence command", command, f.command}, {"evidence", excerpt, f.excerpt}} {
			if !strings.Contains(c[1], c[2]) {
				t.Errorf("%s: %s %q does not say %q", f.key, c[0], c[1], c[2])
			}
		}
	}
	// The LAG's healthy slave passes on its own, on its link to leaf1 too; the bond leaves
	// per-NIC settings to its slaves.
	for k, s := range map[string]checks.Status{
		"HOST-PFC gpu03:ens1f0np0": checks.Pass, "HOST-PFC gpu03:bond0": checks.Skip,
		"LINK-PFC leaf1:Ethernet8": checks.Pass, "HOST-MTU gpu06:ens8np0": checks.Pass,
	} {
		if status[k] != s {
			t.Errorf("%s is %q, want %s", k, status[k], s)
		}
	}
	if a := actual["LINK-PFC leaf1:Ethernet8"]; !strings.Contains(a, "gpu03:ens1f0np0") {
		t.Errorf("leaf1:Ethernet8 does not reach the LAG's first slave: %q", a)
	}
	// Every fault the lab plants is among the findings, on its device (and port): a failure or a
	// warning; a link or switch-port result may sit on the far end, naming the fault's as its peer.
	for _, f := range lab.Faults(lab.ScenarioHostVariants) {
		found := false
		for _, r := range rep.Results {
			at := r.Device == f.Device && (f.Interface == "" || r.Interface == f.Interface)
			if strings.HasPrefix(r.Check, "LINK-") || strings.HasPrefix(r.Check, "SW-") {
				at = at || r.Peer == f.Device+":"+f.Interface
			}
			if strings.HasPrefix(r.Check, "XFER-") {
				at = at || strings.HasSuffix(r.Path, "->"+f.Device+":"+f.Interface) // a transfer into the port
			}
			found = found || r.Check == f.Check && at && (r.Status == checks.Fail || r.Status == checks.Warn)
		}
		if !found {
			t.Errorf("planted fault not reported: %+v", f)
		}
	}
}
