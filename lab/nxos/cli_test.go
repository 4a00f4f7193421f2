package nxos

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/roceaudit/roceaudit/collectors/cli"
	nxoscol "github.com/roceaudit/roceaudit/collectors/nxos"
	sshx "github.com/roceaudit/roceaudit/collectors/ssh"
	"github.com/roceaudit/roceaudit/topology"
)

// TestInteractiveCollection collects the broken leaf4 through roceaudit's own interactive CLI
// transport (scrapligo on a verified SSH connection) and checks that it sees exactly what the
// exec path sees, and that the session says it is simulated.
func TestInteractiveCollection(t *testing.T) {
	sw := leaf4()
	sw.Port("Ethernet1/2").Watchdog[3] = false
	sw.Port("Ethernet1/3").PFCAuto, sw.Port("Ethernet1/3").DCBX = true, true
	dev := New(sw)
	dev.now = func() time.Time { return time.Date(2026, 11, 30, 10, 2, 31, 0, time.UTC) }
	srv := startServer(t, dev)

	dir := t.TempDir()
	keyFile, khFile := filepath.Join(dir, "id_ed25519"), filepath.Join(dir, "known_hosts")
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(srv.port))
	if err := os.WriteFile(keyFile, srv.clientKey, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(khFile, []byte(knownhosts.Line([]string{knownhosts.Normalize(addr)}, srv.hostKey)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := cli.Dial(ctx, sshx.Config{Host: "127.0.0.1", Port: srv.port, User: "admin", IdentityFile: keyFile,
		KnownHostsFile: khFile, Timeout: 5 * time.Second, Allowlist: nxoscol.Platform{}.Allowlist()}, "nxos")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !s.Simulated() {
		t.Error("the session does not say it is simulated")
	}

	viaCLI := &topology.Device{Name: "leaf4"}
	if err := (nxoscol.Platform{}).Collect(ctx, s, topology.DeviceSpec{Name: "leaf4"}, viaCLI); err != nil {
		t.Fatal(err)
	}
	viaExec := &topology.Device{Name: "leaf4"}
	if err := (nxoscol.Platform{}).Collect(ctx, execRunner{dev}, topology.DeviceSpec{Name: "leaf4"}, viaExec); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(viaExec.Switch, viaCLI.Switch); d != "" {
		t.Errorf("interactive collection differs from exec (-exec +cli):\n%s", d)
	}
	if got := viaCLI.Switch.Port("Ethernet1/3").PFC.Value.Mode; got != "auto" {
		t.Errorf("Ethernet1/3 PFC mode over the CLI = %q, want auto", got)
	}
}
