package sshclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roceaudit/roceaudit/collectors"
)

func TestRunNonZeroExitIsOutput(t *testing.T) {
	f := setup(t)
	out, err := dial(t, f.cfg).Run(context.Background(), "ethtool -a eth9")
	if err != nil {
		t.Fatal(err)
	}
	if out.ExitCode != 1 || !strings.Contains(out.Stderr, "no device matches") {
		t.Errorf("got %+v", out)
	}
}

func TestRunMissingExitStatusIsError(t *testing.T) {
	f := setup(t)
	f.srv.mu.Lock()
	f.srv.replies = map[string]reply{"noexit": {stdout: "x", noExit: true}}
	f.srv.mu.Unlock()
	if _, err := dial(t, f.cfg).Run(context.Background(), "noexit"); err == nil ||
		!strings.Contains(err.Error(), "without an exit status") {
		t.Fatalf("err = %v", err)
	}
}

func TestSudoPrefixReachesServer(t *testing.T) {
	f := setup(t)
	f.cfg.Sudo = true
	c := dial(t, f.cfg)
	out, err := c.Run(context.Background(), "ethtool -a eth0")
	if err != nil || out.Stdout != "as root\n" {
		t.Fatalf("got %+v, %v", out, err)
	}
	// Already prefixed: not doubled.
	if _, err := c.Run(context.Background(), "sudo -n cat /etc/os-release"); err != nil {
		t.Fatal(err)
	}
	received, _, _, _, _ := f.srv.snapshot()
	want := []string{"sudo -n ethtool -a eth0", "sudo -n cat /etc/os-release"}
	if strings.Join(received, "|") != strings.Join(want, "|") {
		t.Errorf("server received %q, want %q", received, want)
	}
}

func TestAllowlistRefusalSendsNothing(t *testing.T) {
	f := setup(t)
	c := dial(t, f.cfg)
	for _, cmd := range []string{
		"rm -rf /",
		"ethtool -s eth0 autoneg off",
		"ethtool -a eth0; reboot",
		"cat /etc/../etc/shadow",
	} {
		_, err := c.Run(context.Background(), cmd)
		if !errors.Is(err, collectors.ErrNotAllowed) || !strings.Contains(err.Error(), cmd) {
			t.Errorf("%q: err = %v, want ErrNotAllowed naming the command", cmd, err)
		}
	}
	// No allowlist at all refuses everything.
	f.cfg.Allowlist = nil
	if _, err := dial(t, f.cfg).Run(context.Background(), "cat /etc/os-release"); !errors.Is(err, collectors.ErrNotAllowed) {
		t.Errorf("nil allowlist: err = %v", err)
	}
	if received, _, _, _, _ := f.srv.snapshot(); len(received) != 0 {
		t.Errorf("server received %q", received)
	}
}

func TestCancelSlowCommand(t *testing.T) {
	f := setup(t)
	c := dial(t, f.cfg)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	_, err := c.Run(ctx, "sleep 600")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	// This server ignores signals: TERM, then KILL after the grace, then the channel closes.
	if d := time.Since(start); d > stopGrace+time.Second {
		t.Errorf("Run returned after %v", d)
	}
	select {
	case cmd := <-f.srv.slowClosed:
		if cmd != "sleep 600" {
			t.Errorf("closed %q", cmd)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("server never saw the channel closed")
	}
	if _, _, signals, _, _ := f.srv.snapshot(); !slices.Equal(signals, []string{"TERM", "KILL"}) {
		t.Errorf("signals = %v, want [TERM KILL]", signals)
	}

	// The connection is still usable afterwards.
	if _, err := c.Run(context.Background(), "cat /etc/os-release"); err != nil {
		t.Fatal(err)
	}
}

func TestCommandTimeout(t *testing.T) {
	f := setup(t)
	f.cfg.Timeout = 300 * time.Millisecond
	_, err := dial(t, f.cfg).Run(context.Background(), "sleep 600")
	if !errors.Is(err, ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	select {
	case <-f.srv.slowClosed:
	case <-time.After(2 * time.Second):
		t.Fatal("server never saw the channel closed")
	}
}

func TestParallelRunsShareOneConnection(t *testing.T) {
	f := setup(t)
	f.srv.mu.Lock()
	f.srv.delay = 30 * time.Millisecond
	f.srv.mu.Unlock()
	f.cfg.MaxSessions = 2
	c := dial(t, f.cfg)
	var wg sync.WaitGroup
	errs := make(chan error, 12)
	for i := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd, want := "cat /etc/os-release", testReplies["cat /etc/os-release"].stdout
			if i%2 == 1 {
				cmd, want = "ethtool -a eth0", testReplies["ethtool -a eth0"].stdout
			}
			out, err := c.Run(context.Background(), cmd)
			if err == nil && out.Stdout != want {
				err = fmt.Errorf("%s: got %q", cmd, out.Stdout)
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	received, users, _, _, maxActive := f.srv.snapshot()
	if len(received) != 12 || len(users) != 1 {
		t.Errorf("%d commands over %d connections, want 12 over 1", len(received), len(users))
	}
	if maxActive != 2 {
		t.Errorf("max concurrent sessions %d, want MaxSessions=2", maxActive)
	}
}

func TestCappedOutput(t *testing.T) {
	var w capped
	chunk := strings.Repeat("x", 1<<20)
	for range 16 {
		w.Write([]byte(chunk))
	}
	if w.truncated || w.String() != strings.Repeat(chunk, 16) {
		t.Fatalf("exactly MaxOutput must not be truncated")
	}
	if n, err := w.Write([]byte("overflow")); n != 8 || err != nil {
		t.Fatalf("Write = %d, %v; the stream must keep draining", n, err)
	}
	s := w.String()
	if !strings.HasSuffix(s, TruncationMarker) || len(s) != MaxOutput+len(TruncationMarker) {
		t.Errorf("truncated output: len %d, marker %v", len(s), strings.HasSuffix(s, TruncationMarker))
	}
}

// io.Copy into capped (what x/crypto/ssh does with a session's streams) reads through a
// pooled buffer, keeps every byte up to MaxOutput and drains the rest.
func TestCappedReadFrom(t *testing.T) {
	var w capped
	src := strings.Repeat("0123456789", (MaxOutput+100<<10)/10)
	n, err := io.Copy(&w, strings.NewReader(src))
	if err != nil || n != int64(len(src)) {
		t.Fatalf("io.Copy = %d, %v; want all %d bytes drained", n, err, len(src))
	}
	if got := w.String(); got != src[:MaxOutput]+TruncationMarker {
		t.Errorf("kept %d bytes (truncated %v), want the first %d and the marker", w.n, w.truncated, MaxOutput)
	}
	// A reader that is only a reader, as an SSH channel is: io.Copy then asks the destination.
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	// Under the race detector the pool drops a quarter of its buffers at random: ~12 KiB a
	// copy on average. 100 copies left that mean ~2 KiB of noise, and a run went past the
	// bound below; 2,000 keep it within a few hundred bytes.
	const copies = 2000
	for range copies {
		var small capped
		_, _ = io.Copy(&small, struct{ io.Reader }{strings.NewReader("short answer\n")})
		if small.String() != "short answer\n" { // as Run does: the output, its chunk back in the pool
			t.Fatalf("short copy: %q", small.String())
		}
	}
	runtime.ReadMemStats(&after)
	// A new buffer each time is 32 KiB a copy (and a 16 KiB chunk); pooled, far less (the race detector makes the
	// pool drop some buffers, and the count is the whole process's, so allow half of one).
	if per := (after.TotalAlloc - before.TotalAlloc) / copies; per > 16<<10 {
		t.Errorf("%d bytes allocated per short copy: a new buffer each time?", per)
	}
}
