package cli

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/platforms"
	"github.com/roceaudit/roceaudit/collectors/sshclient"
)

// Bodies shaped like napalm's EOS `show interfaces | json` and NetApp/harvest's NX-OS
// `show interface | json`), cut to a few keys: these tests are about the transport, so what
// matters is multi-line JSON with indentation surviving the trip intact.
const (
	eosVersionJSON = `{
    "modelName": "DCS-7280CR3-32P4",
    "version": "4.30.1F",
    "hostname": "leaf1",
    "uptime": 1466586841.4151127
}`
	eosInterfacesJSON = `{
    "interfaces": {
        "Ethernet2": {
            "name": "Ethernet2",
            "mtu": 9214,
            "forwardingModel": "bridged"
        }
    }
}`
	nxosVersionJSON = `{
  "host_name": "nx1",
  "nxos_ver_str": "10.2(4)",
  "chassis_id": "Nexus9000 C9336C-FX2 Chassis"
}`
	nxosInterfaceJSON = `{
  "TABLE_interface": {
    "ROW_interface": [
      {
        "interface": "Ethernet1/1",
        "eth_mtu": "9216",
        "eth_in_flowctrl": "off",
        "eth_out_flowctrl": "off"
      }
    ]
  }
}`
	eosInvalid  = "% Invalid input"
	nxosInvalid = "                  ^\n% Invalid command at '^' marker."
)

func eosReplies() map[string]string {
	return map[string]string{
		"show version | json":    eosVersionJSON,
		"show interfaces | json": eosInterfacesJSON,
		"show lldp neighbors":    "",
	}
}

func nxosReplies() map[string]string {
	return map[string]string{
		"show version | json":   nxosVersionJSON,
		"show interface | json": nxosInterfaceJSON,
	}
}

func testAllowlist() *collectors.Allowlist {
	return collectors.NewAllowlist(
		"show version | json", "show interfaces | json", "show interface | json",
		"show lldp neighbors", "show bogus", "show slow", "show counter {port}",
	)
}

// isolate keeps the user's real ~/.ssh and agent out of the test.
func isolate(t testing.TB) {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("SSH_AUTH_SOCK", "")
}

type fixture struct {
	dir string
	srv *cliServer
	cfg sshclient.Config
}

// setup starts a CLI server that trusts a fresh client key, and a known_hosts that knows it.
func setup(t testing.TB, prompt, invalid string, replies map[string]string) *fixture {
	t.Helper()
	isolate(t)
	dir := t.TempDir()
	srv := newCLIServer(t, prompt, invalid, replies)
	key, pub := writeClientKey(t, dir)
	srv.mu.Lock()
	srv.authorized = pub
	srv.mu.Unlock()
	kh := filepath.Join(dir, "known_hosts")
	if err := os.WriteFile(kh, []byte(srv.knownLine(srv.hostKey.PublicKey())+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return &fixture{dir: dir, srv: srv, cfg: sshclient.Config{
		Host:           "127.0.0.1",
		Port:           srv.port,
		User:           "admin",
		IdentityFile:   key,
		KnownHostsFile: kh,
		Timeout:        2 * time.Second,
		Allowlist:      testAllowlist(),
	}}
}

func dial(t *testing.T, cfg sshclient.Config, platform string) *Session {
	t.Helper()
	s, err := DialIn(context.Background(), cfg, platforms.Registry(), platform)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func run(t *testing.T, s *Session, cmd string) collectors.Output {
	t.Helper()
	out, err := s.Run(context.Background(), cmd)
	if err != nil {
		t.Fatalf("Run(%q): %v", cmd, err)
	}
	return out
}
