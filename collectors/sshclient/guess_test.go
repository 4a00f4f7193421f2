package sshclient

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/roceaudit/roceaudit/collectors"
)

// A guessed command (sent before anything asked for it) that stalls is given up after
// GuessStall, not the command timeout, and the guesses after it are not sent: a wedged NIC
// stalls each of its commands, and the device's budget belongs to the commands asked for.
// Those after it still run.
func TestRunBatchStalledGuessIsCutShortWithTheRestOfTheGuess(t *testing.T) {
	f := setup(t)
	f.srv.mu.Lock()
	f.srv.replies, f.srv.shell = batchReplies, true
	f.srv.mu.Unlock()
	f.cfg.Timeout = time.Minute // far beyond the test's bound: only GuessStall can end the stall
	c := dial(t, f.cfg)
	guess := []string{"sleep 600", "cat /etc/os-release"}
	ctx := collectors.WithGuessed(context.Background(), guess)
	start := time.Now()
	outs, errs := c.RunBatch(ctx, []string{"ethtool -a eth0", "sleep 600", "cat /etc/os-release", "ethtool -a eth9"})
	if took := time.Since(start); took > collectors.GuessStall+20*time.Second {
		t.Errorf("the batch took %s: the guess was not cut at %s", took, collectors.GuessStall)
	}
	if errs[0] != nil || outs[0].Stdout != batchReplies["ethtool -a eth0"].stdout {
		t.Errorf("before the stall: %+v, %v", outs[0], errs[0])
	}
	if !errors.Is(errs[1], ErrTimeout) || !strings.Contains(errs[1].Error(), "after "+collectors.GuessStall.String()) {
		t.Errorf("stalled guess: %v", errs[1])
	}
	if !errors.Is(errs[2], collectors.ErrGuessNotSent) || !strings.Contains(errs[2].Error(), `"sleep 600"`) {
		t.Errorf("the guess after the stall: %+v %v, want not sent", outs[2], errs[2])
	}
	if errs[3] != nil || outs[3].ExitCode != 1 {
		t.Errorf("the command asked for after the stall: %+v %v", outs[3], errs[3])
	}
	received, _, _, _, _ := f.srv.snapshot()
	if len(received) != 2 || strings.Contains(received[1], "os-release") || !strings.Contains(received[1], "ethtool -a eth9") {
		t.Errorf("sessions: %q", received)
	}
}

// Commands sent one per session (a device whose shell gives no markers) keep the same bound:
// once a guess stalls, the guesses after it are not sent.
func TestRunEachStalledGuessStopsTheRestOfTheGuess(t *testing.T) {
	f := setup(t)
	f.srv.mu.Lock()
	f.srv.replies, f.srv.shell = batchReplies, true
	f.srv.mu.Unlock()
	f.cfg.Timeout = time.Minute
	c := dial(t, f.cfg)
	c.noBatch.Store(true)
	cmds := []string{"sleep 600", "ethtool -a eth0", "cat /etc/os-release"}
	ctx := collectors.WithGuessed(context.Background(), []string{"sleep 600", "cat /etc/os-release"})
	start := time.Now()
	outs, errs := c.RunBatch(ctx, cmds)
	if took := time.Since(start); took > collectors.GuessStall+20*time.Second {
		t.Errorf("took %s: the guess was not cut at %s", took, collectors.GuessStall)
	}
	if !errors.Is(errs[0], ErrTimeout) {
		t.Errorf("stalled guess: %v", errs[0])
	}
	if errs[1] != nil || outs[1].Stdout != batchReplies["ethtool -a eth0"].stdout {
		t.Errorf("the command asked for: %+v %v", outs[1], errs[1])
	}
	if !errors.Is(errs[2], collectors.ErrGuessNotSent) {
		t.Errorf("the guess after the stall: %+v %v, want not sent", outs[2], errs[2])
	}
	received, _, _, _, _ := f.srv.snapshot()
	for _, r := range received {
		if strings.Contains(r, "os-release") {
			t.Errorf("the guess after the stall was sent: %q", received)
		}
	}
}
