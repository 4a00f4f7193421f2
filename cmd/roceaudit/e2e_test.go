package main

// End-to-end tests: the cobra root against the built-in lab over real SSH on 127.0.0.1.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/lab"
	"github.com/roceaudit/roceaudit/reports"
)

// run executes roceaudit in-process and returns exit code, stdout and stderr.
func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var out, errb bytes.Buffer
	code := Main(ctx, args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func decodeReport(t *testing.T, data string) reports.Report {
	t.Helper()
	var rep reports.Report
	if err := json.Unmarshal([]byte(data), &rep); err != nil {
		t.Fatalf("report is not JSON: %v\n%s", err, data)
	}
	if rep.Schema != reports.Schema {
		t.Fatalf("schema %q", rep.Schema)
	}
	return rep
}

// keys lists "STATUS CHECK device:interface" for results with one of the given statuses.
func keys(rep reports.Report, statuses ...checks.Status) []string {
	var out []string
	for _, r := range rep.Results {
		for _, s := range statuses {
			if r.Status == s {
				k := fmt.Sprintf("%s %s %s:%s", r.Status, r.Check, r.Device, r.Interface)
				if r.Path != "" {
					k += " " + r.Path
				}
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}

func startLab(t *testing.T, scenario string) *lab.Lab {
	t.Helper()
	l, err := lab.Start(context.Background(), lab.Options{Scenario: scenario, Dir: filepath.Join(t.TempDir(), "lab")})
	if err != nil {
		t.Fatalf("lab: %v", err)
	}
	t.Cleanup(func() { _ = l.Close() })
	return l
}

func TestDemoHealthyPassesEveryCheck(t *testing.T) {
	code, out, errs := run(t, "demo", "--scenario", "healthy", "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %s", code, errs)
	}
	rep := decodeReport(t, out)
	if bad := keys(rep, checks.Fail, checks.Error, checks.Warn); len(bad) > 0 {
		t.Fatalf("healthy lab has findings:\n%s", strings.Join(bad, "\n"))
	}
	if !rep.Simulated || rep.Note == "" {
		t.Error("a lab report must say it is a simulation")
	}
	seen := map[string]bool{}
	for _, r := range rep.Results {
		seen[r.Check] = true
	}
	for _, c := range checks.Catalog() {
		if !seen[c.ID] {
			t.Errorf("%s never ran on the healthy lab", c.ID)
		}
	}
}

// brokenFindings is the exact set of findings of the broken scenario: one fault per host port,
// plus the host whose key does not match known_hosts, the extra hosts gpu11..gpu14, the
// leaf3 - leaf4 peer link and leaf2's polarized hash.
var brokenFindings = []string{
	"error COLLECT-FACTS gpu14:", // answers every command with random bytes
	"error COLLECT-REACH gpu09:",
	"error XFER-RUN gpu03:ens1f1np1 gpu03:ens1f1np1->gpu07:ens1f1np1", // perftest not installed on gpu03
	"fail HOST-APP-TC gpu13:ens1f0np0",                                // /etc/environment sets NCCL_IB_TC=0
	"fail HOST-APP-TC gpu13:ens1f1np1",
	"fail HOST-CNP gpu07:ens1f1np1",
	"fail HOST-DCBX gpu08:ens1f1np1",
	"fail HOST-DSCP-MAP gpu05:ens1f1np1",
	"fail HOST-ECN gpu07:ens1f0np0",
	"fail HOST-GID-INDEX gpu03:ens1f0np0",
	"fail HOST-GID-INDEX gpu03:ens1f1np1",
	"fail HOST-GID-V2 gpu02:ens1f0np0",
	"fail HOST-MTU gpu04:ens1f0np0",
	"fail HOST-PAUSE gpu06:ens1f1np1",
	"fail HOST-PFC gpu06:ens1f0np0",
	"fail HOST-RDMA-PORT gpu01:ens1f1np1",
	"fail HOST-ROCE-MTU gpu04:ens1f1np1",
	"fail HOST-TOS gpu08:ens1f0np0",
	"fail HOST-TRUST gpu05:ens1f0np0",
	"fail LINK-MTU leaf3:Ethernet49", // spine1:Ethernet1/3 at 9000
	"fail LINK-PFC leaf1:Ethernet12", // leaf1 PFC off facing gpu04 at 3
	"fail LINK-PFC leaf1:Ethernet8",  // leaf1 PFC 3,4 facing gpu03 at 3
	"fail LINK-PFC leaf3:Ethernet2",  // gpu06's PFC fault (3,4) seen from the switch end
	"fail PATH-DCBX-MIX leaf4:Ethernet1/3 gpu03:ens1f1np1->gpu07:ens1f1np1 via leaf2>spine1>leaf4",
	"fail PATH-DCBX-MIX leaf4:Ethernet1/3 gpu03:ens1f1np1->gpu07:ens1f1np1 via leaf2>spine2>leaf4",
	"fail PATH-MTU gpu04:ens1f0np0 gpu01:ens1f0np0->gpu04:ens1f0np0 via leaf1", // gpu04 at MTU 4200
	// One ECMP member has the bad MTU; the member through spine2 passes.
	"fail PATH-MTU spine1:Ethernet1/3 gpu01:ens1f0np0->gpu05:ens1f0np0 via leaf1>spine1>leaf3",
	"fail PATH-RESOLVED gpu01:ens1f0np0 gpu01:ens1f0np0->gpu10", // gpu10 is cabled to nothing
	"fail SW-BUFFER spine2:Ethernet4",
	"fail SW-CNP-QUEUE spine2:Ethernet0",
	"fail SW-DCBX leaf4:Ethernet1/3",
	"fail SW-DSCP-MAP leaf1:Ethernet4",
	"fail SW-ECN spine2:Ethernet8",
	"fail SW-ECN-PFC-ORDER leaf1:Ethernet48", // ECN marks only above the PFC trigger
	"fail SW-HEADROOM spine2:Ethernet12",     // told 300 m, sized for 40 m
	"fail SW-MTU leaf2:swp2",
	"fail SW-MTU spine1:Ethernet1/3",
	"fail SW-PAUSE leaf3:Ethernet3",
	"fail SW-PFC leaf1:Ethernet12", // the lossy hop of gpu01->gpu04
	"fail SW-PFC leaf1:Ethernet8",
	"fail SW-PFC-WATCHDOG leaf4:Ethernet1/2",
	"fail SW-TRUST leaf3:Ethernet2",
	"fail XFER-BW gpu01:ens1f0np0 gpu01:ens1f0np0->gpu04:ens1f0np0",
	"fail XFER-BW gpu01:ens1f0np0 gpu01:ens1f0np0->gpu05:ens1f0np0", // gpu05 trusts PCP: RoCE on a lossy priority
	// leaf2 hashes on the addresses only: each of the 8 flow labels takes spine1, never spine2
	// (the demo runs this pair alone with --all-paths, so its results are per member).
	"fail XFER-COVERAGE gpu11:ens1f1np1 gpu11:ens1f1np1->gpu12:ens1f1np1 (path 1 via spine1)",
	"fail XFER-RETRANS gpu01:ens1f0np0 gpu01:ens1f0np0->gpu10:ens1f0np0", // no path: the sender's retries time out
	"fail XFER-RETRANS gpu05:ens1f0np0 gpu01:ens1f0np0->gpu05:ens1f0np0",
	"fail XFER-RETRANS leaf1:Ethernet12 gpu01:ens1f0np0->gpu04:ens1f0np0", // the drops are named on the switch port
	"fail XFER-RUN gpu01:ens1f0np0 gpu01:ens1f0np0->gpu10:ens1f0np0",      // transport retry counter exceeded
	// Every uplink is cabled, so no cycle forms; the lossless peer link could close one.
	"warn FABRIC-DEADLOCK leaf3:Ethernet51 same-tier link leaf3:Ethernet51 - leaf4:Ethernet1/51",
	"warn HOST-PFC-STORM gpu10:ens1f0np0", // the NIC stopped sending pause once
	"warn LINK-LLDP gpu02:ens1f1np1",      // declared on leaf2:swp3, LLDP sees swp2
	"warn LINK-PFC-STORM leaf3:Ethernet5", // gpu12's 8000 ms against leaf3's 50 + 1100 ms watchdog
	// gpu11 cannot drain 3% of the transfer: throttled, yet at ~94% of the link (above 0.9) XFER-BW passes.
	"warn XFER-PAUSE gpu11:ens1f0np0 gpu01:ens1f0np0->gpu11:ens1f0np0",
}

func TestDemoBrokenFailsEveryCheckWhereTheFaultIs(t *testing.T) {
	code, out, errs := run(t, "demo", "--scenario", "broken", "--format", "json")
	if code != exitFailed {
		t.Fatalf("exit %d, want %d; stderr %s", code, exitFailed, errs)
	}
	rep := decodeReport(t, out)
	got := keys(rep, checks.Fail, checks.Error, checks.Warn)
	if diff := cmp.Diff(brokenFindings, got); diff != "" {
		t.Fatalf("findings differ (-want +got):\n%s", diff)
	}
	for _, r := range rep.Results {
		if r.Status != checks.Fail && r.Status != checks.Error {
			continue
		}
		if r.Expected == "" || r.Actual == "" || r.Evidence == nil || r.Remediation == "" {
			t.Errorf("%s %s:%s lacks expected/actual/evidence/remediation: %+v", r.Check, r.Device, r.Interface, r)
		}
		if r.Check == "COLLECT-REACH" && !strings.Contains(r.Message, "SHA256:") {
			t.Errorf("host-key mismatch must show the offered fingerprint: %q", r.Message)
		}
	}
	// The product promise: every check of the catalog fails (or errs, or warns) somewhere.
	found := map[string]bool{}
	for _, r := range rep.Results {
		if r.Status == checks.Fail || r.Status == checks.Error || r.Status == checks.Warn {
			found[r.Check] = true
		}
	}
	for _, c := range checks.Catalog() {
		if !found[c.ID] {
			t.Errorf("%s does not fail in the broken demo", c.ID)
		}
	}
	// Each planted fault is found where it is, and distinctly: no result can stand for two.
	faults := lab.Faults(lab.ScenarioBroken)
	for _, msg := range indistinctFaults(faults) {
		t.Error(msg)
	}
	for _, f := range faults {
		if !slices.ContainsFunc(rep.Results, func(r checks.Result) bool { return r.Check == f.Check && faultAt(f, r) }) {
			t.Errorf("fault %+v: no failing %s result on it", f, f.Check)
		}
	}
}

// indistinctFaults says which planted faults one result could show at once. Faults are
// keyed by device, so a device-wide fault (Interface "", found on any port of its device)
// is seen beside the port faults of that device, not only beside another device-wide one:
// two faults on one port, or two device-wide ones on one device, clash outright; a
// device-wide fault beside a port fault of its device clashes when they share a check
// (broken has leaf2's device-wide XFER-COVERAGE beside leaf2:swp2's SW-MTU, and gpu03's
// XFER-RUN beside its ports' HOST-GID-INDEX: distinct checks, so distinct results).
func indistinctFaults(faults []lab.Fault) []string {
	var msgs []string
	byDevice := map[string][]lab.Fault{}
	for _, f := range faults {
		for _, o := range byDevice[f.Device] {
			switch {
			case o.Interface == f.Interface:
				msgs = append(msgs, fmt.Sprintf("%s:%s carries two faults: %s and %s", f.Device, f.Interface, o.Check, f.Check))
			case (o.Interface == "" || f.Interface == "") && o.Check == f.Check:
				msgs = append(msgs, fmt.Sprintf("%s has a device-wide %s beside the same check's fault on a port (%s:%s and %s:%s): one result would show both",
					f.Device, f.Check, o.Device, o.Interface, f.Device, f.Interface))
			}
		}
		byDevice[f.Device] = append(byDevice[f.Device], f)
	}
	return msgs
}

func TestIndistinctFaults(t *testing.T) {
	for _, tc := range []struct {
		name   string
		faults []lab.Fault
		want   int
	}{
		{"a device-wide fault beside a port fault of another check", []lab.Fault{{Device: "leaf2", Check: "XFER-COVERAGE"}, {Device: "leaf2", Interface: "swp2", Check: "SW-MTU"}}, 0},
		{"one check on two ports of a device", []lab.Fault{{Device: "gpu03", Interface: "p0", Check: "HOST-GID-INDEX"}, {Device: "gpu03", Interface: "p1", Check: "HOST-GID-INDEX"}}, 0},
		{"two faults on one port", []lab.Fault{{Device: "leaf2", Interface: "swp2", Check: "SW-MTU"}, {Device: "leaf2", Interface: "swp2", Check: "SW-PFC"}}, 1},
		{"two device-wide faults", []lab.Fault{{Device: "gpu09", Check: "COLLECT-REACH"}, {Device: "gpu09", Check: "XFER-RUN"}}, 1},
		{"a port fault, then the device-wide fault of its check", []lab.Fault{{Device: "leaf2", Interface: "swp2", Check: "SW-MTU"}, {Device: "leaf2", Check: "SW-MTU"}}, 1},
		{"the device-wide fault, then a port fault of its check", []lab.Fault{{Device: "leaf2", Check: "SW-MTU"}, {Device: "leaf2", Interface: "swp2", Check: "SW-MTU"}}, 1},
		{"the same check on two devices", []lab.Fault{{Device: "leaf2", Check: "SW-MTU"}, {Device: "spine1", Interface: "Ethernet1/3", Check: "SW-MTU"}}, 0},
	} {
		if got := indistinctFaults(tc.faults); len(got) != tc.want {
			t.Errorf("%s: %q, want %d clash(es)", tc.name, got, tc.want)
		}
	}
}

// faultAt reports whether a failing, erring or warning result shows fault f: on its device
// (and port); for a link, switch-port or fabric result possibly from the far end, naming the
// fault's port as its peer; for a transfer, one from or into the fault's port, or one whose
// remediation names the switch that decided it (a device-wide switch fault such as a hash).
func faultAt(f lab.Fault, r checks.Result) bool {
	if r.Status != checks.Fail && r.Status != checks.Error && r.Status != checks.Warn {
		return false
	}
	port := f.Device + ":" + f.Interface
	at := r.Device == f.Device && (f.Interface == "" || r.Interface == f.Interface)
	if strings.HasPrefix(r.Check, "LINK-") || strings.HasPrefix(r.Check, "SW-") || strings.HasPrefix(r.Check, "FABRIC-") {
		at = at || r.Peer == port
	}
	if strings.HasPrefix(r.Check, "XFER-") {
		at = at || strings.HasPrefix(r.Path, port+"->") || strings.Contains(r.Path, "->"+port) ||
			f.Interface == "" && strings.Contains(r.Remediation, "make "+f.Device+",")
	}
	return at
}

func TestAuditCollectCheckAgreeOnTheLab(t *testing.T) {
	l := startLab(t, "broken")
	dir := t.TempDir()
	jsonFile, htmlFile := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.html")

	code, text, errs := run(t, "audit", "-i", l.InventoryPath, "--no-color", "--report", "json="+jsonFile, "--report", "html="+htmlFile)
	if code != exitFailed {
		t.Fatalf("audit exit %d: %s", code, errs)
	}
	if !strings.Contains(text, "HOST-PFC") || !strings.Contains(text, "SIMULATION") || strings.Contains(text, "\x1b[") {
		t.Errorf("text report without colour should name findings and the simulation:\n%s", text)
	}
	data, err := os.ReadFile(jsonFile)
	if err != nil {
		t.Fatal(err)
	}
	audited := decodeReport(t, string(data))
	if html, err := os.ReadFile(htmlFile); err != nil || !bytes.Contains(html, []byte("HOST-PFC")) {
		t.Errorf("html report: %v", err)
	}

	snap := filepath.Join(dir, "snap.json")
	// gpu09's host key is wrong on purpose: the snapshot is written, incomplete (exit 3).
	if code, _, errs := run(t, "collect", "-i", l.InventoryPath, "-o", snap); code != exitIncomplete {
		t.Fatalf("collect exit %d: %s", code, errs)
	}
	raw, _ := os.ReadFile(snap)
	if !bytes.Contains(raw, []byte(`"transcript"`)) || !bytes.Contains(raw, []byte("ibv_devinfo -v")) {
		t.Error("snapshot must keep the raw transcript")
	}
	code, out, errs := run(t, "check", snap, "--format", "json")
	if code != exitFailed {
		t.Fatalf("check exit %d: %s", code, errs)
	}
	offline := decodeReport(t, out)
	all := []checks.Status{checks.Pass, checks.Fail, checks.Error, checks.Warn, checks.Skip}
	if diff := cmp.Diff(keys(audited, all...), keys(offline, all...)); diff != "" {
		t.Errorf("offline check differs from the live audit:\n%s", diff)
	}
}

func TestUnreachableDeviceIsIncompleteAndTheRestIsAudited(t *testing.T) {
	l := startLab(t, "healthy")
	inv, err := os.ReadFile(l.InventoryPath)
	if err != nil {
		t.Fatal(err)
	}
	// Port 1 on 127.0.0.1 is closed: the connection is refused.
	extra := strings.Replace(string(inv), "hosts:\n", "hosts:\n  - name: gone01\n    address: 127.0.0.1\n    port: 1\n", 1)
	path := filepath.Join(filepath.Dir(l.InventoryPath), "with-gone.yaml")
	if err := os.WriteFile(path, []byte(extra), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, "audit", "-i", path, "--format", "json")
	if code != exitIncomplete {
		t.Fatalf("exit %d, want %d: %s", code, exitIncomplete, errs)
	}
	rep := decodeReport(t, out)
	if got := keys(rep, checks.Fail, checks.Error, checks.Warn); !cmp.Equal(got, []string{"error COLLECT-REACH gone01:"}) {
		t.Errorf("findings: %v", got)
	}
	if rep.Summary[checks.Pass] < 100 {
		t.Errorf("the reachable hosts must still be audited: %v", rep.Summary)
	}
}

func TestBadInputExitsTwoWithFileAndLine(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "inv.yaml")
	os.WriteFile(bad, []byte("version: 1\nhosts:\n  - name: gpu01\n    adress: 10.0.0.1\n"), 0o600)
	code, _, errs := run(t, "validate", "-i", bad)
	if code != exitUsage || !strings.Contains(errs, "inv.yaml:4") || !strings.Contains(errs, "adress") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	unknownPlatform := filepath.Join(dir, "plat.yaml")
	os.WriteFile(unknownPlatform, []byte("version: 1\nswitches:\n  - name: leaf1\n    address: 10.0.0.2\n    platform: junos\n"), 0o600)
	if code, _, errs := run(t, "audit", "-i", unknownPlatform); code != exitUsage || !strings.Contains(errs, "junos") {
		t.Errorf("unknown platform: exit %d, %q", code, errs)
	}
	if code, _, errs := run(t, "audit", "-i", filepath.Join(dir, "missing.yaml")); code != exitUsage || !strings.Contains(errs, "missing.yaml") {
		t.Errorf("unreadable inventory: exit %d, %q", code, errs)
	}
	if code, _, _ := run(t, "audit", "-i", bad, "--only", "NOPE-1"); code != exitUsage {
		t.Errorf("unknown check id: exit %d", code)
	}
	if code, _, _ := run(t, "check", filepath.Join(dir, "nope.json")); code != exitUsage {
		t.Errorf("missing snapshot: exit %d", code)
	}
}

func TestPlanListsOnlyAllowlistedCommands(t *testing.T) {
	l := startLab(t, "healthy")
	code, out, errs := run(t, "plan", "-i", l.InventoryPath, "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var plan struct {
		Devices []planDevice `json:"devices"`
	}
	if err := json.Unmarshal([]byte(out), &plan); err != nil {
		t.Fatal(err)
	}
	if len(plan.Devices) != len(l.Devices) {
		t.Fatalf("%d devices planned, lab has %d", len(plan.Devices), len(l.Devices))
	}
	for _, d := range plan.Devices {
		if len(d.Commands) == 0 || d.Port == 0 || d.User == "" {
			t.Errorf("%s: incomplete plan %+v", d.Name, d)
		}
		for _, c := range d.Commands {
			for _, w := range []string{"--pfc", "--trust ", " -A ", "mkdir", "echo ", ">"} {
				if strings.Contains(c, w) {
					t.Errorf("%s: a write slipped into the plan: %q", d.Name, c)
				}
			}
		}
	}
}

func TestPlanFromAnImportedInventoryWithSudo(t *testing.T) {
	code, out, errs := run(t, "plan", "-i", "ansible:../../inventory/testdata/imports/ansible/valid/fabric.yml")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "  sudo -n ip -d -j addr show") || strings.Contains(out, "sudo -n sudo -n") {
		t.Errorf("sudo prefix must appear exactly once:\n%s", out)
	}
	if code, _, errs := run(t, "validate", "-i", "clab:../../inventory/testdata/imports/clab/invalid/duplicate_node.clab.yml"); code != exitUsage || !strings.Contains(errs, "duplicate_node.clab.yml:") {
		t.Errorf("invalid clab file: exit %d %s", code, errs)
	}
}

func TestGIDsMarksTheRoCEv2EntryPerIP(t *testing.T) {
	l := startLab(t, "healthy")
	code, out, errs := run(t, "gids", "-i", l.InventoryPath, "gpu01")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"ens1f0np0 (mlx5_0 port 1)", "<- RoCE v2 for 10.1.0.1", "<- RoCE v2 for 10.100.0.1", "<- RoCE v2 for 2001:db8:1::1", "IB/RoCE v1"} {
		if !strings.Contains(out, want) {
			t.Errorf("gids output lacks %q:\n%s", want, out)
		}
	}
	if code, _, _ := run(t, "gids", "-i", l.InventoryPath, "nosuchhost"); code != exitUsage {
		t.Errorf("unknown host: exit %d", code)
	}
}

func TestChecksAndExplain(t *testing.T) {
	code, out, _ := run(t, "checks")
	if code != exitOK || !strings.Contains(out, "HOST-GID-V2") || !strings.Contains(out, "COLLECT-REACH") {
		t.Errorf("checks: %d %s", code, out)
	}
	code, out, _ = run(t, "explain", "host-pfc")
	if code != exitOK || !strings.Contains(out, "mlnx_qos -i ens1f0np0 --pfc 0,0,0,1,0,0,0,0") || strings.Contains(out, "{if}") || !strings.Contains(out, "802.1Qbb") {
		t.Errorf("explain: %d %s", code, out)
	}
	if code, _, errs := run(t, "explain", "NOPE"); code != exitUsage || !strings.Contains(errs, "HOST-PFC") {
		t.Errorf("explain unknown: %d %s", code, errs)
	}
}

// Snapshots keep raw output: owner-only, and switch secrets are redacted from the transcript.
func TestSnapshotIsPrivate(t *testing.T) {
	l := startLab(t, "healthy")
	snap := filepath.Join(t.TempDir(), "snap.json")
	if code, _, errs := run(t, "collect", "-i", l.InventoryPath, "-o", snap); code != exitOK {
		t.Fatalf("collect: %d %s", code, errs)
	}
	st, err := os.Stat(snap)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("snapshot mode %v (%v), want 0600", st.Mode(), err)
	}
}
