package sshclient

import (
	"bytes"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"
)

// An identity file is parsed once while it holds the same key, and again as soon as it
// holds another, even one of the same size written within the same clock tick.
func TestIdentityParsedOncePerContent(t *testing.T) {
	dir := t.TempDir()
	first, firstPub := writeClientKey(t, dir, "")
	path := filepath.Join(dir, "id")
	copyFile(t, first, path)
	a, err := loadIdentity(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := loadIdentity(path)
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Error("the same identity file was parsed again")
	}
	if !bytes.Equal(a.PublicKey().Marshal(), firstPub.Marshal()) {
		t.Fatal("the identity is not the file's key")
	}
	second, secondPub := writeClientKey(t, dir, "")
	copyFile(t, second, path)
	c, err := loadIdentity(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(c.PublicKey().Marshal(), secondPub.Marshal()) {
		t.Error("a rewritten identity file still gave the key it held before")
	}
}

// A passphrase-protected identity gives the same typed error every time (buildAuth tells
// the user to use ssh-agent by it), and a missing file its read error.
func TestIdentityErrorsKeepTheirType(t *testing.T) {
	dir := t.TempDir()
	path, _ := writeClientKey(t, dir, "secret")
	for range 2 {
		_, err := loadIdentity(path)
		var pme *ssh.PassphraseMissingError
		if !errors.As(err, &pme) {
			t.Fatalf("loadIdentity(protected) = %v, want a PassphraseMissingError", err)
		}
	}
	if _, err := loadIdentity(filepath.Join(dir, "absent")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("loadIdentity(absent) = %v, want not-exist", err)
	}
}

// A config with an Include is read afresh: the included file may change without it.
func TestSSHConfigWithIncludeIsNotShared(t *testing.T) {
	dir := t.TempDir()
	inc := filepath.Join(dir, "inc")
	cfg := filepath.Join(dir, "config")
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(cfg, "Include "+inc+"\n")
	get := func() string {
		sc, err := loadSSHConfig(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return sc.get("sw1", "HostName")
	}
	write(inc, "Host sw1\n  HostName 127.0.0.2\n")
	if got := get(); got != "127.0.0.2" {
		t.Fatalf("HostName = %q, want 127.0.0.2", got)
	}
	write(inc, "Host sw1\n  HostName 127.0.0.3\n")
	if got := get(); got != "127.0.0.3" {
		t.Errorf("after the included file changed, HostName = %q, want 127.0.0.3", got)
	}
	write(cfg, "Host sw1\n  HostName 127.0.0.4\n")
	if got := get(); got != "127.0.0.4" {
		t.Errorf("after the config changed, HostName = %q, want 127.0.0.4", got)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkLoadIdentityRSA is what each dial pays for a 3072-bit RSA identity (ssh-keygen's
// default type before OpenSSH 9.5): 4.3 ms a parse, parsed once per run now.
func BenchmarkLoadIdentityRSA(b *testing.B) {
	key, err := rsa.GenerateKey(rand.Reader, 3072)
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "id_rsa")
	pemKey := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})
	if err := os.WriteFile(path, pemKey, 0o600); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := loadIdentity(path); err != nil {
			b.Fatal(err)
		}
	}
}

// A config that does not parse is named with its path; one that cannot be read says why.
func TestSSHConfigErrorsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "config")
	if err := os.WriteFile(bad, []byte("Match exec \"true\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for range 2 { // the second from the cache
		_, err := loadSSHConfig(bad)
		if err == nil || !strings.Contains(err.Error(), "ssh config "+bad+": ") {
			t.Errorf("bad config: %v, want an error naming %s", err, bad)
		}
	}
	_, err := loadSSHConfig(filepath.Join(dir, "absent"))
	if !errors.Is(err, os.ErrNotExist) || !strings.HasPrefix(err.Error(), "ssh config: open ") {
		t.Errorf("absent config: %v, want the read error", err)
	}
}
