package sshclient

import (
	"context"
	"testing"
	"time"

	"github.com/roceaudit/roceaudit/collectors"
)

var testReplies = map[string]reply{
	"cat /etc/os-release":         {stdout: "ID=ubuntu\nVERSION_ID=\"22.04\"\n"},
	"ethtool -a eth0":             {stdout: "Pause parameters for eth0:\nRX:\t\ton\n", stderr: "warn\n", exit: 0},
	"ethtool -a eth9":             {stderr: "netlink error: no device matches name (-19)\n", exit: 1},
	"sudo -n ethtool -a eth0":     {stdout: "as root\n"},
	"sleep 600":                   {slow: true},
	"noexit":                      {stdout: "x"},
	"sudo -n cat /etc/os-release": {stdout: "ID=rhel\n"},
}

func testAllowlist() *collectors.Allowlist {
	return collectors.NewAllowlist("ethtool -a {if}", "cat /etc/os-release", "sleep 600", "noexit")
}

// isolate keeps the user's real ~/.ssh and agent out of the test.
func isolate(t *testing.T) {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("SSH_AUTH_SOCK", "")
}

type fixture struct {
	dir     string
	srv     *testServer
	keyPath string
	cfg     Config
}

// setup starts a server that trusts a fresh client key and a known_hosts file that knows
// the server.
func setup(t *testing.T) *fixture {
	t.Helper()
	isolate(t)
	dir := t.TempDir()
	srv := newTestServer(t, testReplies)
	keyPath, pub := writeClientKey(t, dir, "")
	srv.mu.Lock()
	srv.authorized = pub
	srv.mu.Unlock()
	return &fixture{dir: dir, srv: srv, keyPath: keyPath, cfg: Config{
		Host:           "127.0.0.1",
		Port:           srv.port,
		User:           "netops",
		IdentityFile:   keyPath,
		KnownHostsFile: writeKnownHosts(t, dir, "# managed by test", knownLine(srv)),
		Timeout:        5 * time.Second,
		Allowlist:      testAllowlist(),
	}}
}

func dial(t *testing.T, cfg Config) *Client {
	t.Helper()
	c, err := Dial(context.Background(), cfg)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}
