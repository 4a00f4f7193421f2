// Package labtest is the test scaffolding the lab's switch emulators share: an emulator behind
// lab/sshd with throwaway keys, roceaudit's own SSH and interactive CLI clients pointed at it,
// a runner that feeds a collector from Exec, and the checks every emulator runs the same way
// (refusals, answers under concurrent state changes, interactive sessions, golden files).
// What a check expects stays in the emulator's own test.
package labtest

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/cli"
	"github.com/roceaudit/roceaudit/collectors/sshclient"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/lab/sshd"
	"github.com/roceaudit/roceaudit/topology"
)

// Server is an emulator behind the lab's SSH server on 127.0.0.1.
type Server struct {
	Port      int
	ClientKey []byte // OpenSSH PEM of the only key the server accepts
	HostKey   ssh.PublicKey
}

// StartSSH serves dev for user (the only one accepted) with a fresh host key and a fresh
// client key, until the test ends.
func StartSSH(t testing.TB, dev sshd.Device, user string) Server {
	t.Helper()
	_, hostPriv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	hostKey, err := ssh.NewSignerFromKey(hostPriv)
	if err != nil {
		t.Fatal(err)
	}
	clientPub, clientPriv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := ssh.NewPublicKey(clientPub)
	if err != nil {
		t.Fatal(err)
	}
	blk, err := ssh.MarshalPrivateKey(clientPriv, "")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := sshd.Start(sshd.Config{Device: dev, HostKey: hostKey, ClientKey: pub, User: user})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	return Server{Port: srv.Port(), ClientKey: pem.EncodeToMemory(blk), HostKey: hostKey.PublicKey()}
}

// ClientConfig is roceaudit's SSH client configuration for the server as user: the client key
// and a known_hosts file that pins the host key, written to a temporary directory, and a 5 s
// timeout. The caller adds the allowlist and sudo.
func (s Server) ClientConfig(t testing.TB, user string) sshclient.Config {
	t.Helper()
	dir := t.TempDir()
	keyFile, khFile := filepath.Join(dir, "id_ed25519"), filepath.Join(dir, "known_hosts")
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(s.Port))
	if err := os.WriteFile(keyFile, s.ClientKey, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(khFile, []byte(knownhosts.Line([]string{knownhosts.Normalize(addr)}, s.HostKey)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return sshclient.Config{Host: "127.0.0.1", Port: s.Port, User: user, IdentityFile: keyFile,
		KnownHostsFile: khFile, Timeout: 5 * time.Second}
}

// CollectOverCLI collects the device named name through roceaudit's own interactive CLI
// transport (scrapligo on a verified SSH connection, as admin) with p's collector, and fails
// the test unless the session says it is simulated.
func CollectOverCLI(t testing.TB, p collectors.Platform, srv Server, name string) *topology.SwitchFacts {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cfg := srv.ClientConfig(t, "admin")
	cfg.Allowlist = p.Allowlist()
	s, err := cli.Dial(ctx, cfg, p.Name())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !s.Simulated() {
		t.Error("the session does not say it is simulated")
	}
	dev := &topology.Device{Name: name}
	if err := p.Collect(ctx, s, inventory.DeviceSpec{Name: name}, dev); err != nil {
		t.Fatal(err)
	}
	return dev.Switch
}
