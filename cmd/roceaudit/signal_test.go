package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/roceaudit/roceaudit/lab/sshd"
)

// A SIGTERM sent to the process ends the run's context with that cause (the handler is in
// place before signalContext returns, so the signal cannot kill the test).
func TestSignalContextSaysWhichSignal(t *testing.T) {
	ctx, stop := signalContext(context.Background())
	defer stop()
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("SIGTERM did not end the context")
	}
	if !errors.Is(context.Cause(ctx), errTerminated) {
		t.Errorf("cause %v, want %v", context.Cause(ctx), errTerminated)
	}
}

// A run a scheduler stops with SIGTERM exits 143, after writing its partial report, where
// Ctrl-C exits 130.
func TestTerminatedRunExits143(t *testing.T) {
	inv := faultyLab(t, map[string]sshd.Fault{"gpu04": sshd.FaultSlow}, "60s")
	ctx, cancel := context.WithCancelCause(context.Background())
	time.AfterFunc(2*time.Second, func() { cancel(errTerminated) })
	var out, errb bytes.Buffer
	code := Main(ctx, []string{"audit", "-i", inv}, strings.NewReader(""), &out, &errb)
	if code != exitTerminated || !strings.Contains(errb.String(), "terminated (SIGTERM)") {
		t.Fatalf("exit %d, want %d; stderr %s", code, exitTerminated, errb.String())
	}
	if !strings.Contains(out.String(), "PARTIAL REPORT") {
		t.Errorf("no partial report:\n%s", out.String())
	}
}
