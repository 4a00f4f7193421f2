package sshclient

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/roceaudit/roceaudit/internal/opensshd"
)

// A batch against OpenSSH and the login's real shell answers each command as its own
// session does: output byte for byte, stderr apart, exit codes, a missing command.
func TestOpenSSHBatchAnswersAsRunDoes(t *testing.T) {
	f := newRealFixture(t)
	s := f.server(t, false)
	cmds := []string{"id -un", "cat /etc/hostname", "cat /nonexistent-roceaudit", "printf no-newline", "false", "nosuchcommand-roceaudit", "uname -s"}
	c := dial(t, f.config(s, "root", cmds...))
	outs, errs := c.RunBatch(context.Background(), cmds)
	for i, cmd := range cmds {
		want, err := c.Run(context.Background(), cmd)
		if err != nil || errs[i] != nil {
			t.Fatalf("%q: Run error %v, batch error %v", cmd, err, errs[i])
		}
		if i == 5 {
			// The batch runs in /bin/sh, Run in the login shell: each words "not found" its way.
			want.Stderr = outs[i].Stderr
		}
		if outs[i] != want {
			t.Errorf("%q: batch %+v, Run %+v", cmd, outs[i], want)
		}
	}
	if outs[0].Stdout != "root\n" || outs[3].Stdout != "no-newline" || outs[4].ExitCode != 1 || outs[5].ExitCode != 127 ||
		!strings.Contains(outs[2].Stderr, "No such file") || !strings.Contains(outs[5].Stderr, "not found") {
		t.Errorf("answers: %+v", outs)
	}
	if c.noBatch.Load() {
		t.Error("OpenSSH's shell gave no markers back: the batch fell back to one session per command")
	}
}

// A stalled command is stopped after the timeout and the commands after it still answer.
func TestOpenSSHBatchStall(t *testing.T) {
	f := newRealFixture(t)
	s := f.server(t, false)
	cmds := []string{"id -un", "sleep 600", "uname -s"}
	cfg := f.config(s, "root", cmds...)
	cfg.Timeout = 2 * time.Second
	c := dial(t, cfg)
	outs, errs := c.RunBatch(context.Background(), cmds)
	if errs[0] != nil || outs[0].Stdout != "root\n" {
		t.Errorf("before the stall: %+v %v", outs[0], errs[0])
	}
	if !errors.Is(errs[1], ErrTimeout) {
		t.Errorf("stalled: %v", errs[1])
	}
	if errs[2] != nil || strings.TrimSpace(outs[2].Stdout) == "" {
		t.Errorf("after the stall: %+v %v", outs[2], errs[2])
	}
}

// sudo applies to each command of a batch on its own: a refused one fails alone.
func TestOpenSSHBatchSudo(t *testing.T) {
	f := newRealFixture(t)
	u := opensshd.RequireUser(t)
	s := f.server(t, false)
	opensshd.SudoersDropIn(t, "roceaudit-test-batch-sudo", u.Username+" ALL=(root) NOPASSWD: /usr/bin/id\n")
	cfg := f.config(s, u.Username, "id -un", "cat /etc/hostname")
	cfg.Sudo = true
	outs, errs := dial(t, cfg).RunBatch(context.Background(), []string{"id -un", "cat /etc/hostname", "id -un"})
	if errs[0] != nil || outs[0].Stdout != "root\n" || errs[2] != nil || outs[2].Stdout != "root\n" {
		t.Errorf("sudo -n id -un: %+v %v, %+v %v", outs[0], errs[0], outs[2], errs[2])
	}
	if errs[1] != nil || outs[1].ExitCode == 0 || !strings.Contains(outs[1].Stderr, "password is required") {
		t.Errorf("sudo wanting a password: %+v %v", outs[1], errs[1])
	}
}
