package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/lab"
	"github.com/roceaudit/roceaudit/lab/sshd"
)

// faultyLab runs the healthy lab with the given devices misbehaving, and an inventory copy
// whose per-device timeout is timeout.
func faultyLab(t *testing.T, faults map[string]sshd.Fault, timeout string) string {
	t.Helper()
	l, err := lab.Start(context.Background(), lab.Options{Scenario: "healthy", Dir: filepath.Join(t.TempDir(), "lab"), Faults: faults})
	if err != nil {
		t.Fatalf("lab: %v", err)
	}
	t.Cleanup(func() { _ = l.Close() })
	inv, err := os.ReadFile(l.InventoryPath)
	if err != nil {
		t.Fatal(err)
	}
	out := regexp.MustCompile(`(?m)^  timeout: .*$`).ReplaceAllString(string(inv), "  timeout: "+timeout)
	if out == string(inv) {
		t.Fatal("the lab inventory sets no timeout to shorten")
	}
	path := filepath.Join(filepath.Dir(l.InventoryPath), "faulty.yaml")
	if err := os.WriteFile(path, []byte(out), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// goroutinesSettle waits until the goroutine count is back to at most base (plus slack for
// the runtime's own), failing with a dump if it never is.
func goroutinesSettle(t *testing.T, base int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > base+2 {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("goroutines leaked: %d now, %d before\n%s", runtime.NumGoroutine(), base, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Every way a device can misbehave ends in an error result that says why, on that device
// only: the rest of the fabric is audited fully, the run is incomplete (exit 3), and nothing
// of the run is left behind.
func TestMisbehavingDevicesAreErrorsAndTheRestIsAudited(t *testing.T) {
	faults := map[string]sshd.Fault{
		"gpu02": sshd.FaultRefuse, "gpu03": sshd.FaultAuthFail, "gpu04": sshd.FaultStall,
		"gpu05": sshd.FaultDrop, "gpu06": sshd.FaultGarbage, "gpu07": sshd.FaultSlow,
		"leaf3": sshd.FaultStall, "leaf4": sshd.FaultGarbage,
	}
	inv := faultyLab(t, faults, "6s") // healthy switches need seconds under -race on a loaded machine
	base := runtime.NumGoroutine()
	start := time.Now()
	code, out, errs := run(t, "audit", "-i", inv, "--format", "json")
	if code != exitIncomplete {
		t.Fatalf("exit %d, want %d: %s", code, exitIncomplete, errs)
	}
	if d := time.Since(start); d > 40*time.Second {
		t.Errorf("the audit took %s: a bad device held up the run", d)
	}
	rep := decodeReport(t, out)
	why := map[sshd.Fault]string{
		sshd.FaultRefuse: "connection refused", sshd.FaultAuthFail: "authentication failed",
		sshd.FaultStall: "deadline exceeded", sshd.FaultDrop: "EOF", sshd.FaultGarbage: "",
		sshd.FaultSlow: "deadline exceeded",
	}
	for _, d := range rep.Devices {
		f, bad := faults[d.Name]
		if !bad {
			if d.Error != "" || !d.Reachable {
				t.Errorf("%s behaves but was not audited: %s", d.Name, d.Error)
			}
			continue
		}
		if d.Error == "" {
			t.Errorf("%s (%s) has no error", d.Name, f)
		} else if !strings.Contains(d.Error, why[f]) {
			t.Errorf("%s (%s): error %q does not say %q", d.Name, f, d.Error, why[f])
		}
		if len(d.Error) > 2000 {
			t.Errorf("%s (%s): a %d-byte error floods the report", d.Name, f, len(d.Error))
		}
	}
	for _, r := range rep.Results {
		if _, bad := faults[r.Device]; bad && r.Status == checks.Pass && !strings.HasPrefix(r.Check, "COLLECT-") {
			t.Errorf("%s passed on a misbehaving device %s", r.Check, r.Device)
		}
	}
	// The healthy hosts are audited fully: every host check passes on gpu01 and gpu08.
	for _, host := range []string{"gpu01", "gpu08"} {
		n := 0
		for _, r := range rep.Results {
			if r.Device == host && strings.HasPrefix(r.Check, "HOST-") && r.Status == checks.Pass {
				n++
			}
		}
		if n < 20 {
			t.Errorf("%s: %d host checks passed, want its full audit", host, n)
		}
	}
	goroutinesSettle(t, base)
}

// A whole-run deadline stops a run that per-device timeouts would let go on, and the report
// of what was collected is still written, marked partial.
func TestDeadlineWritesAPartialReport(t *testing.T) {
	inv := faultyLab(t, map[string]sshd.Fault{"gpu04": sshd.FaultSlow}, "60s")
	file := filepath.Join(t.TempDir(), "r.json")
	start := time.Now()
	code, _, errs := run(t, "audit", "-i", inv, "--deadline", "3s", "--quiet", "--report", "json="+file)
	if code != exitIncomplete {
		t.Fatalf("exit %d, want %d: %s", code, exitIncomplete, errs)
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("took %s with a 3s deadline", d)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	rep := decodeReport(t, string(data))
	if !strings.Contains(rep.Interrupted, "deadline") {
		t.Errorf("report not marked partial: %q", rep.Interrupted)
	}
	for _, d := range rep.Devices {
		if d.Name == "gpu04" && !strings.Contains(d.Error, "--deadline 3s") {
			t.Errorf("gpu04: %q", d.Error)
		}
		if d.Name == "gpu01" && d.Error != "" {
			t.Errorf("gpu01 was collected before the deadline: %q", d.Error)
		}
	}
}

// Ctrl-C during an audit writes the partial report, marked so, and exits 130.
func TestInterruptWritesAPartialReport(t *testing.T) {
	inv := faultyLab(t, map[string]sshd.Fault{"gpu04": sshd.FaultSlow}, "60s")
	dir := t.TempDir()
	file := filepath.Join(dir, "r.json")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(2*time.Second, cancel)
	var out, errb bytes.Buffer
	code := Main(ctx, []string{"audit", "-i", inv, "--report", "json=" + file}, strings.NewReader(""), &out, &errb)
	if code != exitInterrupted {
		t.Fatalf("exit %d, want %d: %s", code, exitInterrupted, errb.String())
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("no partial report: %v", err)
	}
	rep := decodeReport(t, string(data))
	if !strings.Contains(rep.Interrupted, "interrupted") {
		t.Errorf("report not marked partial: %q", rep.Interrupted)
	}
	if !strings.Contains(out.String(), "PARTIAL REPORT") {
		t.Errorf("the text report does not say it is partial:\n%s", out.String())
	}
}
