package sshclient

import (
	"crypto/ed25519"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

func testHostKey(t *testing.T) ssh.PublicKey {
	t.Helper()
	pub, _, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	k, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// One parse of known_hosts serves every dial, yet a changed file is read again: a key
// replaced in the file is trusted at once and the old one refused.
func TestKnownHostsParsedOnceUntilTheFileChanges(t *testing.T) {
	file := filepath.Join(t.TempDir(), "known_hosts")
	const addr = "127.0.0.1:2222"
	host := knownhosts.Normalize(addr)
	remote := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 2222}
	a, b := testHostKey(t), testHostKey(t)
	write := func(k ssh.PublicKey) {
		if err := os.WriteFile(file, []byte(knownhosts.Line([]string{host}, k)+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(a)
	for range 3 {
		h, err := newHostKeys(file, false)
		if err != nil {
			t.Fatal(err)
		}
		if err := h.check(addr, remote, a); err != nil {
			t.Fatalf("key A refused: %v", err)
		}
	}
	time.Sleep(10 * time.Millisecond) // a later modification time, whatever the file system
	write(b)
	h, err := newHostKeys(file, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.check(addr, remote, b); err != nil {
		t.Errorf("key B, now in the file, refused: %v", err)
	}
	if err := h.check(addr, remote, a); err == nil {
		t.Error("key A, no longer in the file, accepted from the cache")
	}
}
