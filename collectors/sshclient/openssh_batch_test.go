package sshclient

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/roceaudit/roceaudit/collectors"
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

// A stalled command is stopped after the timeout, on the host too (for root, whose signal
// requests OpenSSH before 10.0 refuses, and for a user, with and without sudo), and the
// commands after it still answer.
func TestOpenSSHBatchStall(t *testing.T) {
	f := newRealFixture(t)
	u := opensshd.RequireUser(t)
	s := f.server(t, false)
	opensshd.SudoersDropIn(t, "roceaudit-test-batch-stall", u.Username+" ALL=(root) NOPASSWD: /usr/bin/sleep, /usr/bin/id, /usr/bin/uname\n")
	// use_pty is sudo's default from 1.9.14; sudo documents it as without effect when sudo
	// has no terminal, as in a batch: the case proves the stop holds with it set.
	for _, tc := range []struct {
		user         string
		sudo, usePty bool
	}{{"root", false, false}, {u.Username, false, false}, {u.Username, true, false}, {u.Username, true, true}} {
		t.Run(fmt.Sprintf("%s sudo=%v use_pty=%v", tc.user, tc.sudo, tc.usePty), func(t *testing.T) {
			if tc.usePty {
				opensshd.SudoersDropIn(t, "roceaudit-test-batch-stall-pty", "Defaults:"+u.Username+" use_pty\n")
			}
			cmds := []string{"id -un", "sleep 600", "uname -s"}
			cfg := f.config(s, tc.user, cmds...)
			cfg.Timeout, cfg.Sudo = 3*time.Second, tc.sudo
			c := dial(t, cfg)
			type answer struct {
				outs []collectors.Output
				errs []error
			}
			done := make(chan answer, 1)
			go func() { outs, errs := c.RunBatch(context.Background(), cmds); done <- answer{outs, errs} }()
			stalled := waitProcs(t, s, "sleep\x00600\x00")
			a := <-done
			if want := map[bool]string{false: tc.user, true: "root"}[tc.sudo] + "\n"; a.errs[0] != nil || a.outs[0].Stdout != want {
				t.Errorf("before the stall: %+v %v", a.outs[0], a.errs[0])
			}
			if !errors.Is(a.errs[1], ErrTimeout) {
				t.Errorf("stalled: %v", a.errs[1])
			}
			if a.errs[2] != nil || strings.TrimSpace(a.outs[2].Stdout) == "" {
				t.Errorf("after the stall: %+v %v", a.outs[2], a.errs[2])
			}
			// Bounded: a loaded machine is slow to reap.
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
				left := alive(stalled)
				if len(left) == 0 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the stalled command still runs on the host after its stop: %v", left)
				}
			}
		})
	}
}

// proc is one process, its start time telling it from a later one that reuses the pid.
type proc struct {
	pid   int
	start string
}

// waitProcs waits (bounded) for processes whose command line is cmdline (NUL-separated, as
// /proc/PID/cmdline holds it) among the descendants of the sshd of s, and returns them.
func waitProcs(t *testing.T, s *opensshd.Server, cmdline string) []proc {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(s.Dir, "sshd.pid"))
	if err != nil {
		t.Fatalf("sshd's pid: %v", err)
	}
	sshd, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("sshd's pid: %v", err)
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		var found []proc
		dirs, _ := os.ReadDir("/proc")
		for _, d := range dirs {
			pid, err := strconv.Atoi(d.Name())
			if err != nil {
				continue
			}
			if c, _ := os.ReadFile("/proc/" + d.Name() + "/cmdline"); string(c) != cmdline {
				continue
			}
			if p, ok := descendant(pid, sshd); ok {
				found = append(found, p)
			}
		}
		if len(found) > 0 {
			return found
		}
	}
	t.Fatalf("no %q ever ran under sshd %d", cmdline, sshd)
	return nil
}

// descendant reports whether pid descends from ancestor, and pid's start time.
func descendant(pid, ancestor int) (proc, bool) {
	p := proc{pid: pid}
	// Each turn climbs one parent; a pid chain is far shorter than this bound.
	for cur, depth := pid, 0; cur > 1 && depth < 64; depth++ {
		f, ok := statFields(cur)
		if !ok {
			return p, false
		}
		if cur == pid {
			p.start = f[19]
		}
		parent, _ := strconv.Atoi(f[1])
		if parent == ancestor {
			return p, true
		}
		cur = parent
	}
	return p, false
}

// statFields are the fields of /proc/PID/stat after the command name: state, ppid, ...
// (field 3 onward of proc(5)).
func statFields(pid int) ([]string, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	i := bytes.LastIndexByte(b, ')')
	if err != nil || i < 0 {
		return nil, false
	}
	f := strings.Fields(string(b[i+1:]))
	return f, len(f) > 19
}

// alive is what of ps still runs: not gone, not a zombie, not a new process on the pid.
func alive(ps []proc) []proc {
	var out []proc
	for _, p := range ps {
		if f, ok := statFields(p.pid); ok && f[0] != "Z" && f[19] == p.start {
			out = append(out, p)
		}
	}
	return out
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
