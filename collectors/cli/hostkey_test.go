package cli

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/roceaudit/roceaudit/collectors/platforms"
	"github.com/roceaudit/roceaudit/collectors/sshclient"
)

// shells is how many PTY shells the server has opened: a refused host never gets one.
func (s *cliServer) shells() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.ptys)
}

func TestUnknownHostRefused(t *testing.T) {
	f := setup(t, "leaf1#", eosInvalid, eosReplies())
	f.cfg.KnownHostsFile = filepath.Join(f.dir, "empty_known_hosts")
	if err := os.WriteFile(f.cfg.KnownHostsFile, []byte("# nothing\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := DialIn(context.Background(), f.cfg, platforms.Registry(), "eos")
	if !errors.Is(err, sshclient.ErrUnknownHost) {
		t.Fatalf("Dial = %v, want ErrUnknownHost", err)
	}
	fp := ssh.FingerprintSHA256(f.srv.hostKey.PublicKey())
	if !strings.Contains(err.Error(), fp) {
		t.Errorf("error %q does not name the offered key %s", err, fp)
	}
	if n := f.srv.shells(); n != 0 {
		t.Fatalf("server opened %d shells for an unknown host", n)
	}
	b, _ := os.ReadFile(f.cfg.KnownHostsFile)
	if string(b) != "# nothing\n" {
		t.Fatalf("known_hosts changed without trust on first use: %q", b)
	}
}

func TestHostKeyMismatchRefusedEvenWithTOFU(t *testing.T) {
	for _, tofu := range []bool{false, true} {
		f := setup(t, "leaf1#", eosInvalid, eosReplies())
		f.cfg.TrustOnFirstUse = tofu
		other := newSigner(t).PublicKey()
		if err := os.WriteFile(f.cfg.KnownHostsFile, []byte(f.srv.knownLine(other)+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := DialIn(context.Background(), f.cfg, platforms.Registry(), "eos")
		if !errors.Is(err, sshclient.ErrHostKey) {
			t.Fatalf("tofu=%v: Dial = %v, want ErrHostKey", tofu, err)
		}
		var hke *sshclient.HostKeyError
		if !errors.As(err, &hke) {
			t.Fatalf("tofu=%v: %v is not a *HostKeyError", tofu, err)
		}
		fp := ssh.FingerprintSHA256(f.srv.hostKey.PublicKey())
		if hke.Fingerprint != fp || !strings.Contains(err.Error(), fp) {
			t.Errorf("tofu=%v: fingerprint %q / message %q, want %s", tofu, hke.Fingerprint, err, fp)
		}
		if n := f.srv.shells(); n != 0 {
			t.Fatalf("tofu=%v: server opened %d shells despite the mismatch", tofu, n)
		}
	}
}

func TestTrustOnFirstUseThenStrict(t *testing.T) {
	f := setup(t, "nx1#", nxosInvalid, nxosReplies())
	f.cfg.KnownHostsFile = filepath.Join(f.dir, "new", "known_hosts") // does not exist yet
	f.cfg.TrustOnFirstUse = true
	s := dial(t, f.cfg, "nxos")
	if out := run(t, s, "show version | json"); out.Stdout != nxosVersionJSON+"\n" {
		t.Fatalf("got %+v", out)
	}
	b, err := os.ReadFile(f.cfg.KnownHostsFile)
	if err != nil || !strings.Contains(string(b), f.srv.knownLine(f.srv.hostKey.PublicKey())) {
		t.Fatalf("known_hosts after TOFU = %q, %v", b, err)
	}

	// Now known: strict checking accepts it…
	f.cfg.TrustOnFirstUse = false
	dial(t, f.cfg, "nxos")

	// …and a changed key is refused, trust on first use or not.
	newKey := newSigner(t)
	f.srv.set(func(s *cliServer) { s.hostKey = newKey })
	f.cfg.TrustOnFirstUse = true
	if _, err := DialIn(context.Background(), f.cfg, platforms.Registry(), "nxos"); !errors.Is(err, sshclient.ErrHostKey) {
		t.Fatalf("changed key: Dial = %v, want ErrHostKey", err)
	}
}
