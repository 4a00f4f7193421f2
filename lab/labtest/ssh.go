// Package labtest is the test scaffolding the lab's switch emulators share: an emulator behind
// lab/sshd with throwaway keys, and the checks every emulator runs the same way (refusals,
// answers under concurrent state changes, interactive sessions, golden files). What a check
// expects stays in the emulator's own test. It knows nothing of the auditor: the tests that
// run a collector against an emulator live in labcheck/.
package labtest

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/roceaudit/roceaudit/lab/sshd"
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
