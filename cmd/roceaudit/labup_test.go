package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roceaudit/roceaudit/internal/syncbuf"
	"github.com/roceaudit/roceaudit/lab/sshd"
)

// runningLab is `roceaudit lab up` running in the background until stop is called.
type runningLab struct {
	out, errb syncbuf.Buffer
	done      chan int
	cancel    context.CancelFunc
}

// startLabUp runs `lab up` with args and waits for its one-line announcement.
func startLabUp(t *testing.T, args ...string) *runningLab {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r := &runningLab{done: make(chan int, 1), cancel: cancel}
	t.Cleanup(cancel)
	go func() {
		r.done <- Main(ctx, append([]string{"lab", "up"}, args...), strings.NewReader(""), &r.out, &r.errb)
	}()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(r.out.String(), "\n") {
		if time.Now().After(deadline) {
			t.Fatalf("no ready line; stdout %q stderr %q", r.out.String(), r.errb.String())
		}
		select {
		case code := <-r.done:
			t.Fatalf("lab up exited %d early: %s", code, r.errb.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	return r
}

// stop interrupts lab up and returns its exit code.
func (r *runningLab) stop(t *testing.T) int {
	t.Helper()
	r.cancel()
	select {
	case code := <-r.done:
		return code
	case <-time.After(10 * time.Second):
		t.Fatal("lab up did not stop on interrupt")
		return -1
	}
}

// lab up keeps the lab running until interrupted, announces it on one line, and an audit of
// the inventory it wrote works like any other.
func TestLabUpThenAuditThenInterrupt(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lab")
	lab := startLabUp(t, "--scenario", "broken", "--dir", dir)
	line := strings.TrimSpace(lab.out.String())
	inv := filepath.Join(dir, "inventory.yaml")
	if !strings.HasPrefix(line, "lab ready: ") || !strings.HasSuffix(line, "devices, inventory "+inv) {
		t.Errorf("ready line %q", line)
	}
	for _, f := range []string{"inventory.yaml", "known_hosts", "id_ed25519"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	code, report, errs := run(t, "audit", "-i", inv, "--format", "json", "--only", "COLLECT-REACH,HOST-PFC,SW-PFC")
	if code != exitFailed {
		t.Fatalf("audit exit %d: %s", code, errs)
	}
	rep := decodeReport(t, report)
	got := strings.Join(keys(rep, "fail", "error"), "\n")
	for _, want := range []string{"error COLLECT-REACH gpu09:", "fail HOST-PFC gpu06:ens1f0np0", "fail SW-PFC leaf1:Ethernet8"} {
		if !strings.Contains(got, want) {
			t.Errorf("findings lack %q:\n%s", want, got)
		}
	}

	if code := lab.stop(t); code != exitOK {
		t.Errorf("lab up exit %d after interrupt", code)
	}
}

// The --faults help names every mode the lab takes.
func TestLabHelpListsEveryFault(t *testing.T) {
	_, out, _ := run(t, "lab", "up", "--help")
	for _, f := range sshd.Faults() {
		if !strings.Contains(out, string(f)) {
			t.Errorf("lab up --help does not name the fault %q", f)
		}
	}
}
