package bench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/roceaudit/roceaudit/topology"
)

// OpenSSH as an operator would script it: one ControlMaster per device, that device's
// commands (exactly those the auditor sent, from its snapshot) in sessions over it,
// sessionsPerDevice at a time, and `devices` devices at a time.
const sessionsPerDevice = 8

type opensshResult struct {
	usage
	sessions, failed int
}

func runOpenSSH(t *testing.T, l *labProcess, snapPath string, devices int, work string) (opensshResult, error) {
	t.Helper()
	sshBin, err := exec.LookPath("ssh")
	if err != nil {
		return opensshResult{}, fmt.Errorf("OpenSSH client (ssh) not installed")
	}
	snap, err := topology.OpenSnapshot(snapPath, topology.ReadOptions{Transcripts: true})
	if err != nil {
		return opensshResult{}, err
	}
	commands := map[string][]string{}
	for _, d := range snap.Devices {
		for _, ex := range d.Transcript {
			commands[d.Name] = append(commands[d.Name], ex.Command)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	var (
		mu  sync.Mutex
		res opensshResult
	)
	account := func(ps *os.ProcessState, failed bool) {
		cpu, rss := rusageOf(ps)
		mu.Lock()
		defer mu.Unlock()
		res.cpu += cpu
		res.maxRSS = max(res.maxRSS, rss)
		res.sessions++
		if failed {
			res.failed++
		}
	}
	start := time.Now()
	g := new(errgroup.Group)
	g.SetLimit(devices)
	for i, d := range l.inv.devices() {
		g.Go(func() error {
			oneDevice(ctx, sshBin, l, d, filepath.Join(work, "c"+strconv.Itoa(i)), commands[d.Name], account)
			return nil
		})
	}
	_ = g.Wait()
	res.wall = time.Since(start)
	return res, nil
}

func oneDevice(ctx context.Context, sshBin string, l *labProcess, d labDevice, sock string, cmds []string, account func(*os.ProcessState, bool)) {
	rel := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(l.dir, p)
	}
	base := []string{"-F", "/dev/null", "-p", strconv.Itoa(d.Port), "-l", l.inv.Defaults.User,
		"-i", rel(l.inv.Defaults.IdentityFile), "-o", "UserKnownHostsFile=" + rel(l.inv.Defaults.KnownHosts),
		"-o", "StrictHostKeyChecking=yes", "-o", "BatchMode=yes", "-o", "ControlPath=" + sock}
	master := exec.CommandContext(ctx, sshBin, append(base, "-o", "ControlMaster=yes", "-N", d.Address)...)
	if err := master.Start(); err != nil {
		account(nil, true)
		return
	}
	defer func() {
		_ = master.Process.Kill()
		_ = master.Wait()
	}()
	// The control socket appears once the master has authenticated.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if _, err := os.Stat(sock); err == nil {
			break
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			account(nil, true)
			return
		}
	}
	g := new(errgroup.Group)
	g.SetLimit(sessionsPerDevice)
	for _, c := range cmds {
		g.Go(func() error {
			cmd := exec.CommandContext(ctx, sshBin, append(base, "-o", "ControlMaster=no", d.Address, c)...)
			err := cmd.Run()
			// 255 is ssh's own failure (the session, not the command).
			failed := cmd.ProcessState == nil || cmd.ProcessState.ExitCode() == 255
			_ = err
			account(cmd.ProcessState, failed)
			return nil
		})
	}
	_ = g.Wait()
}
