package sshclient

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/internal/opensshd"
)

// standIn is a fake ib_write_bw for the real-sshd tests: it records its pid and waits for a
// client that never comes, the way a perftest server does.
const standIn = `#!/bin/sh
echo $$ > "%s/pid.$1"
exec sleep 120
`

// A long-running command (a perftest server) is stopped when its caller gives up, for root
// and non-root logins, with and without sudo: nothing of it is left on the host.
func TestOpenSSHLongRunningCommandIsAlwaysStopped(t *testing.T) {
	f := newRealFixture(t)
	u := opensshd.RequireUser(t)
	bin, err := os.MkdirTemp("", "roceaudit-standin-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(bin) })
	if err := os.Chmod(bin, 0o777); err != nil { // the stand-in writes its pid here as any user
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "ib_write_bw"), []byte(fmt.Sprintf(standIn, bin)), 0o755); err != nil {
		t.Fatal(err)
	}
	path := bin + ":/usr/bin:/bin"
	s := opensshd.Start(t, opensshd.Options{AuthorizedKeys: []ssh.PublicKey{f.pub}, Extra: []string{"SetEnv PATH=" + path}})
	fh, _ := os.OpenFile(f.knownHosts, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	fmt.Fprintln(fh, s.KnownHostsLine(false))
	fh.Close()
	opensshd.SudoersDropIn(t, "roceaudit-test-stop", fmt.Sprintf("Defaults:%s,root secure_path=\"%s\"\n%s ALL=(root) NOPASSWD: /usr/bin/timeout\n", u.Username, path, u.Username))

	for i, tc := range []struct {
		user string
		sudo bool
	}{{"root", false}, {"root", true}, {u.Username, false}, {u.Username, true}} {
		t.Run(fmt.Sprintf("%s sudo=%v", tc.user, tc.sudo), func(t *testing.T) {
			cfg := f.config(s, tc.user, "timeout {n} ib_write_bw {n}")
			cfg.Sudo = tc.sudo
			c := dial(t, cfg)
			ctx, cancel := context.WithCancel(collectors.WithHangup(context.Background()))
			defer cancel()
			done := make(chan error, 1)
			cmd := fmt.Sprintf("timeout 60 ib_write_bw %d", i)
			go func() { _, err := c.Run(ctx, cmd); done <- err }()
			pid := waitPid(t, filepath.Join(bin, "pid."+strconv.Itoa(i)))
			cancel()
			select {
			case <-done:
			case <-time.After(stopGrace + 15*time.Second):
				t.Fatal("Run did not return after cancel")
			}
			// Every process of the command: the stand-in (now sleep) and timeout itself.
			deadline := time.Now().Add(15 * time.Second) // generous: a loaded machine is slow to reap
			for {
				left := leftovers(pid, cmd)
				if len(left) == 0 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("still running after the caller gave up: %v", left)
				}
				time.Sleep(50 * time.Millisecond)
			}
		})
	}
}

func waitPid(t *testing.T, file string) int {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if b, err := os.ReadFile(file); err == nil && strings.TrimSpace(string(b)) != "" {
			n, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err == nil {
				return n
			}
		}
	}
	t.Fatal("the stand-in perftest never started")
	return 0
}

// leftovers lists what is still alive of a command: its pid, and any process whose command
// line is the command (timeout, sudo).
func leftovers(pid int, cmd string) []string {
	var out []string
	if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); err == nil {
		if st, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); !strings.Contains(string(st), ") Z ") {
			out = append(out, "pid "+strconv.Itoa(pid))
		}
	}
	if b, err := exec.Command("pgrep", "-af", "ib_write_bw "+cmd[len(cmd)-1:]+"$").Output(); err == nil {
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if l != "" && strings.Contains(l, cmd) {
				out = append(out, l)
			}
		}
	}
	return out
}
