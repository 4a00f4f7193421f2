package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe to read while Main writes to it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// lab up keeps the lab running until interrupted, announces it on one line, and an audit of
// the inventory it wrote works like any other.
func TestLabUpThenAuditThenInterrupt(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lab")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- Main(ctx, []string{"lab", "up", "--scenario", "broken", "--dir", dir}, strings.NewReader(""), &out, &errb)
	}()

	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(out.String(), "lab ready:") {
		if time.Now().After(deadline) {
			t.Fatalf("no ready line; stdout %q stderr %q", out.String(), errb.String())
		}
		select {
		case code := <-done:
			t.Fatalf("lab up exited %d early: %s", code, errb.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	line := strings.TrimSpace(out.String())
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

	cancel()
	select {
	case code := <-done:
		if code != exitOK {
			t.Errorf("lab up exit %d after interrupt", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("lab up did not stop on interrupt")
	}
}
