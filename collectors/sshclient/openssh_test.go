package sshclient

// Integration tests against the real OpenSSH server: what the in-process test server cannot
// prove (OpenSSH's forwarding for jump hosts, its sudo, its host keys, ~/.ssh/config as
// OpenSSH users write it).

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/internal/opensshd"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

// hostsOnly is the one platform these inventories need.
type hostsOnly struct{}

func (hostsOnly) Role(string) (topology.Role, bool)        { return topology.RoleHost, true }
func (hostsOnly) ClabKinds() map[string]inventory.ClabKind { return nil }
func (hostsOnly) AnsibleNetworkOS() map[string]string      { return nil }

// realFixture is a client key trusted by every server the test starts and a known_hosts
// file that knows them.
type realFixture struct {
	dir        string
	keyPath    string
	pub        ssh.PublicKey
	knownHosts string
}

func newRealFixture(t *testing.T) *realFixture {
	t.Helper()
	opensshd.Require(t)
	isolate(t)
	dir := t.TempDir()
	f := &realFixture{dir: dir, keyPath: filepath.Join(dir, "id_ed25519"), knownHosts: filepath.Join(dir, "known_hosts")}
	f.pub = opensshd.NewClientKey(t, f.keyPath)
	return f
}

// server starts an sshd and records its key in known_hosts (hashed when asked).
func (f *realFixture) server(t *testing.T, hashed bool) *opensshd.Server {
	t.Helper()
	s := opensshd.Start(t, opensshd.Options{AuthorizedKeys: []ssh.PublicKey{f.pub}})
	fh, err := os.OpenFile(f.knownHosts, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	fmt.Fprintln(fh, s.KnownHostsLine(hashed))
	return s
}

func (f *realFixture) config(s *opensshd.Server, user string, allow ...string) Config {
	return Config{
		Host: "127.0.0.1", Port: s.Port, User: user, IdentityFile: f.keyPath,
		KnownHostsFile: f.knownHosts, Timeout: 10 * time.Second,
		Allowlist: collectors.NewAllowlist(allow...),
	}
}

func runOK(t *testing.T, c *Client, cmd string) string {
	t.Helper()
	out, err := c.Run(context.Background(), cmd)
	if err != nil {
		t.Fatalf("%s: %v", cmd, err)
	}
	if out.ExitCode != 0 {
		t.Fatalf("%s: exit %d, stderr %q", cmd, out.ExitCode, out.Stderr)
	}
	return strings.TrimSpace(out.Stdout)
}

func TestOpenSSHDirectRootAndUser(t *testing.T) {
	f := newRealFixture(t)
	u := opensshd.RequireUser(t)
	s := f.server(t, false)
	if got := runOK(t, dial(t, f.config(s, "root", "id -un")), "id -un"); got != "root" {
		t.Errorf("root login runs as %q", got)
	}
	if got := runOK(t, dial(t, f.config(s, u.Username, "id -un")), "id -un"); got != u.Username {
		t.Errorf("user login runs as %q, want %q", got, u.Username)
	}
}

func TestOpenSSHHashedKnownHosts(t *testing.T) {
	f := newRealFixture(t)
	s := f.server(t, true)
	data, _ := os.ReadFile(f.knownHosts)
	if !strings.HasPrefix(string(data), "|1|") || strings.Contains(string(data), "127.0.0.1") {
		t.Fatalf("known_hosts is not hashed: %s", data)
	}
	if got := runOK(t, dial(t, f.config(s, "root", "id -un")), "id -un"); got != "root" {
		t.Errorf("got %q", got)
	}
}

func TestOpenSSHChangedHostKeyRefused(t *testing.T) {
	f := newRealFixture(t)
	s := f.server(t, false)
	// The host is "reinstalled": known_hosts holds another server's key for its address.
	other := opensshd.NewClientKey(t, filepath.Join(f.dir, "old_host_key"))
	line := "[127.0.0.1]:" + fmt.Sprint(s.Port) + " " + strings.TrimSpace(string(ssh.MarshalAuthorizedKey(other)))
	if err := os.WriteFile(f.knownHosts, []byte(line+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Dial(context.Background(), f.config(s, "root", "id -un"))
	var hk *HostKeyError
	if !errors.As(err, &hk) || !errors.Is(err, ErrHostKey) {
		t.Fatalf("want a host key error, got %v", err)
	}
	msg := err.Error()
	for _, want := range []string{ssh.FingerprintSHA256(s.HostKey), ssh.FingerprintSHA256(other), f.knownHosts + ":1", "remove the old line"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q: %s", want, msg)
		}
	}
}

func TestOpenSSHSudo(t *testing.T) {
	f := newRealFixture(t)
	u := opensshd.RequireUser(t)
	s := f.server(t, false)
	// NOPASSWD for id only: anything else wants a password, which -n never prompts for.
	opensshd.SudoersDropIn(t, "roceaudit-test-sudo", u.Username+" ALL=(root) NOPASSWD: /usr/bin/id\n")
	cfg := f.config(s, u.Username, "id -un", "cat /etc/hostname")
	cfg.Sudo = true
	c := dial(t, cfg)
	if got := runOK(t, c, "id -un"); got != "root" {
		t.Errorf("sudo -n id -un ran as %q, want root", got)
	}
	out, err := c.Run(context.Background(), "cat /etc/hostname")
	if err != nil {
		t.Fatalf("a refused sudo is an output, not a transport error: %v", err)
	}
	if out.ExitCode == 0 || !strings.Contains(out.Stderr, "password is required") {
		t.Errorf("sudo wanting a password: exit %d stderr %q, want a non-zero exit and sudo's message", out.ExitCode, out.Stderr)
	}
}

func TestOpenSSHJumpHosts(t *testing.T) {
	f := newRealFixture(t)
	bastion1, bastion2, target := f.server(t, false), f.server(t, false), f.server(t, false)
	for _, tc := range []struct{ name, jump string }{
		{"one bastion", "root@127.0.0.1:" + fmt.Sprint(bastion1.Port)},
		{"chain of two", fmt.Sprintf("root@127.0.0.1:%d,root@127.0.0.1:%d", bastion1.Port, bastion2.Port)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := f.config(target, "root", "id -un")
			cfg.Jump = tc.jump
			if got := runOK(t, dial(t, cfg), "id -un"); got != "root" {
				t.Errorf("got %q", got)
			}
		})
	}
	// The target's sshd saw the connections arrive from the last bastion, not from us: the
	// jump really forwarded.
	if !strings.Contains(bastion2.Log(), "direct-tcpip") && !strings.Contains(bastion2.Log(), "Connection from 127.0.0.1") {
		t.Logf("bastion2 log:\n%s", bastion2.Log())
	}
}

// Devices behind one real OpenSSH bastion share one login to it, more of them at once than
// sshd's MaxSessions (10): forwarded channels are not sessions, and the bastion logs one
// accepted key for all of them.
func TestOpenSSHBastionSharedByDevices(t *testing.T) {
	f := newRealFixture(t)
	bastion, target := f.server(t, false), f.server(t, false)
	cfg := f.config(target, "root", "id -un")
	cfg.Jump = "root@127.0.0.1:" + fmt.Sprint(bastion.Port)
	// Twelve sessions forked by two sshds at once: under -race beside the other packages'
	// tests a command took over 10s to answer (every iteration 8-10s, none stuck, with a
	// longer timeout). What this test proves is the shared login, not speed.
	cfg.Timeout = time.Minute
	const devices = 12
	clients := make([]*Client, devices)
	for i := range clients {
		clients[i] = dial(t, cfg) // all held open at once
	}
	var wg sync.WaitGroup
	for _, c := range clients {
		wg.Go(func() { // Errorf, not runOK's Fatalf: this is not the test's goroutine
			out, err := c.Run(context.Background(), "id -un")
			if err != nil || strings.TrimSpace(out.Stdout) != "root" {
				t.Errorf("id -un through the shared bastion: %+v, %v", out, err)
			}
		})
	}
	wg.Wait()
	if n := strings.Count(bastion.Log(), "Accepted publickey"); n != 1 {
		t.Errorf("%d devices logged in to the bastion %d times, want once; its log:\n%s", devices, n, bastion.Log())
	}
}

// An inventory that leaves user, port and identity to ~/.ssh/config gets them from there, as
// OpenSSH users expect: Host alias, HostName, User, Port, IdentityFile and ProxyJump.
func TestOpenSSHConfigFileHonoured(t *testing.T) {
	f := newRealFixture(t)
	u := opensshd.RequireUser(t)
	bastion, target := f.server(t, false), f.server(t, false)
	home := os.Getenv("HOME") // isolate made it a temporary directory
	sshDir := filepath.Join(home, ".ssh")
	if err := os.MkdirAll(sshDir, 0o700); err != nil {
		t.Fatal(err)
	}
	conf := fmt.Sprintf(`Host jumpbox
  HostName 127.0.0.1
  Port %d
  User root
Host gpu*
  HostName 127.0.0.1
  Port %d
  User %s
  IdentityFile %s
  ProxyJump jumpbox
`, bastion.Port, target.Port, u.Username, f.keyPath)
	if err := os.WriteFile(filepath.Join(sshDir, "config"), []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	inv, err := inventory.Parse("inv.yaml", []byte(fmt.Sprintf(`version: 1
defaults:
  known_hosts: %s
hosts:
  - name: gpu01
    address: gpu01
`, f.knownHosts)), hostsOnly{})
	if err != nil {
		t.Fatalf("inventory: %v", err)
	}
	spec, _ := inv.Device("gpu01")
	cfg := ConfigFor(spec, collectors.NewAllowlist("id -un"), false)
	if got := runOK(t, dial(t, cfg), "id -un"); got != u.Username {
		t.Errorf("logged in as %q, want the ssh config's User %q", got, u.Username)
	}
	if !strings.Contains(bastion.Log(), "Accepted publickey for root") {
		t.Errorf("the connection did not go through the ssh config's ProxyJump; bastion log:\n%s", bastion.Log())
	}
}
