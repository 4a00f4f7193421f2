package sshclient

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
	"golang.org/x/crypto/ssh/knownhosts"
)

func TestDialKeyAuthAndRun(t *testing.T) {
	f := setup(t)
	c := dial(t, f.cfg)
	if !strings.HasPrefix(c.ServerVersion(), "SSH-2.0-") {
		t.Errorf("ServerVersion = %q", c.ServerVersion())
	}
	out, err := c.Run(context.Background(), "ethtool -a eth0")
	if err != nil {
		t.Fatal(err)
	}
	if out.Stdout != testReplies["ethtool -a eth0"].stdout || out.Stderr != "warn\n" || out.ExitCode != 0 {
		t.Errorf("got %+v", out)
	}
	if _, users, _, _, _ := f.srv.snapshot(); len(users) != 1 || users[0] != "netops" {
		t.Errorf("server saw users %v, want [netops]", users)
	}
}

func TestUnknownHostRefused(t *testing.T) {
	f := setup(t)
	kh := writeKnownHosts(t, t.TempDir(), "# nothing yet")
	f.cfg.KnownHostsFile = kh
	_, err := Dial(context.Background(), f.cfg)
	if !errors.Is(err, ErrUnknownHost) {
		t.Fatalf("err = %v, want ErrUnknownHost", err)
	}
	if !strings.Contains(err.Error(), ssh.FingerprintSHA256(f.srv.hostKey())) {
		t.Errorf("error does not show the offered fingerprint: %v", err)
	}
	if b, _ := os.ReadFile(kh); string(b) != "# nothing yet\n" {
		t.Errorf("strict mode modified known_hosts: %q", b)
	}
	if _, users, _, _, _ := f.srv.snapshot(); len(users) != 0 {
		t.Errorf("client authenticated to an unknown host: %v", users)
	}

	// A missing file means every host is unknown, not a different error.
	f.cfg.KnownHostsFile = filepath.Join(t.TempDir(), "absent")
	if _, err := Dial(context.Background(), f.cfg); !errors.Is(err, ErrUnknownHost) {
		t.Fatalf("missing known_hosts: err = %v, want ErrUnknownHost", err)
	}
}

func TestHostKeyMismatchRefused(t *testing.T) {
	f := setup(t)
	offered := f.srv.hostKey()
	f.srv.setHostKeys(newSigner(t)) // the server was "reinstalled"
	_, err := Dial(context.Background(), f.cfg)
	var hke *HostKeyError
	if !errors.As(err, &hke) || !errors.Is(err, ErrHostKey) {
		t.Fatalf("err = %v, want *HostKeyError", err)
	}
	newFP := ssh.FingerprintSHA256(f.srv.hostKey())
	msg := err.Error()
	for _, want := range []string{
		"[127.0.0.1]:" + fmt.Sprint(f.srv.port),
		newFP,
		f.cfg.KnownHostsFile + ":2", // the expected key is on line 2, after the comment
		ssh.FingerprintSHA256(offered),
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
	if hke.Fingerprint != newFP {
		t.Errorf("Fingerprint = %s, want %s", hke.Fingerprint, newFP)
	}
}

func TestTrustOnFirstUse(t *testing.T) {
	f := setup(t)
	kh := filepath.Join(t.TempDir(), "sub", "known_hosts")
	f.cfg.KnownHostsFile = kh
	f.cfg.TrustOnFirstUse = true
	dial(t, f.cfg).Close()

	st, err := os.Stat(kh)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("known_hosts mode %v, want 0600", st.Mode().Perm())
	}
	b, _ := os.ReadFile(kh)
	want := fmt.Sprintf("[127.0.0.1]:%d ssh-ed25519 ", f.srv.port)
	if !strings.HasPrefix(string(b), want) || strings.Count(string(b), "\n") != 1 {
		t.Fatalf("known_hosts = %q, want one line starting %q", b, want)
	}

	// The recorded key now satisfies strict checking.
	f.cfg.TrustOnFirstUse = false
	dial(t, f.cfg).Close()

	// A later change of key is refused even with TOFU, and nothing is written.
	f.srv.setHostKeys(newSigner(t))
	f.cfg.TrustOnFirstUse = true
	if _, err := Dial(context.Background(), f.cfg); !errors.Is(err, ErrHostKey) {
		t.Fatalf("err = %v, want ErrHostKey", err)
	}
	if after, _ := os.ReadFile(kh); string(after) != string(b) {
		t.Errorf("known_hosts changed after a mismatch: %q", after)
	}
}

func TestNonDefaultPortNeedsBracketForm(t *testing.T) {
	f := setup(t)
	// "127.0.0.1 <key>" is the port-22 form; it must not vouch for another port.
	plain := knownhosts.Line([]string{"127.0.0.1"}, f.srv.hostKey())
	f.cfg.KnownHostsFile = writeKnownHosts(t, t.TempDir(), plain)
	if _, err := Dial(context.Background(), f.cfg); !errors.Is(err, ErrUnknownHost) {
		t.Fatalf("err = %v, want ErrUnknownHost", err)
	}
	bracket := fmt.Sprintf("[127.0.0.1]:%d %s", f.srv.port,
		strings.TrimSpace(string(ssh.MarshalAuthorizedKey(f.srv.hostKey()))))
	f.cfg.KnownHostsFile = writeKnownHosts(t, t.TempDir(), bracket)
	dial(t, f.cfg)
}

func TestHostKeyAlgorithmsFollowKnownKeys(t *testing.T) {
	f := setup(t)
	ed := f.srv.hostKeys[0]
	// x/crypto's client prefers ECDSA over ed25519; knowing only the ed25519 key must still work.
	f.srv.setHostKeys(newECDSASigner(t), ed)
	dial(t, f.cfg)
}

func TestPasswordFromEnv(t *testing.T) {
	f := setup(t)
	const secret = "s3cret-Pa55"
	f.srv.mu.Lock()
	f.srv.authorized, f.srv.password = nil, secret
	f.srv.mu.Unlock()
	f.cfg.IdentityFile = ""
	f.cfg.PasswordEnv = "ROCEAUDIT_TEST_PW"

	t.Setenv("ROCEAUDIT_TEST_PW", secret)
	dial(t, f.cfg)

	t.Setenv("ROCEAUDIT_TEST_PW", "wrong-"+secret)
	_, err := Dial(context.Background(), f.cfg)
	if !errors.Is(err, ErrAuth) {
		t.Fatalf("wrong password: err = %v, want ErrAuth", err)
	}
	if strings.Contains(err.Error(), secret) {
		t.Errorf("error leaks the password: %v", err)
	}

	os.Unsetenv("ROCEAUDIT_TEST_PW")
	_, err = Dial(context.Background(), f.cfg)
	if !errors.Is(err, ErrAuth) || !strings.Contains(err.Error(), "ROCEAUDIT_TEST_PW is not set") {
		t.Fatalf("unset password_env: err = %v", err)
	}
}

func TestWrongKeyIsAuthError(t *testing.T) {
	f := setup(t)
	f.cfg.IdentityFile, _ = writeClientKey(t, f.dir, "")
	_, err := Dial(context.Background(), f.cfg)
	if !errors.Is(err, ErrAuth) {
		t.Fatalf("err = %v, want ErrAuth", err)
	}
}

func TestIdentityFileProblems(t *testing.T) {
	f := setup(t)
	enc, _ := writeClientKey(t, f.dir, "hunter2")
	f.cfg.IdentityFile = enc
	_, err := Dial(context.Background(), f.cfg)
	if !errors.Is(err, ErrAuth) || !strings.Contains(err.Error(), "passphrase-protected") ||
		!strings.Contains(err.Error(), "ssh-agent") {
		t.Fatalf("passphrase key: err = %v", err)
	}

	f.cfg.IdentityFile = filepath.Join(f.dir, "missing")
	_, err = Dial(context.Background(), f.cfg)
	if !errors.Is(err, ErrAuth) || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing key: err = %v", err)
	}
	if _, users, _, _, _ := f.srv.snapshot(); len(users) != 0 {
		t.Errorf("authenticated with a broken identity: %v", users)
	}
}

func TestTildeIdentityAndAgent(t *testing.T) {
	f := setup(t)
	// "~/" expands against HOME.
	home := os.Getenv("HOME")
	b, _ := os.ReadFile(f.keyPath)
	if err := os.WriteFile(filepath.Join(home, "key"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	f.cfg.IdentityFile = "~/key"
	dial(t, f.cfg)

	// ssh-agent: the only credential is held by an in-test agent on a unix socket.
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	f.srv.mu.Lock()
	f.srv.authorized = signer.PublicKey()
	f.srv.mu.Unlock()
	ring := agent.NewKeyring()
	if err := ring.Add(agent.AddedKey{PrivateKey: priv}); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(t.TempDir(), "agent.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { agent.ServeAgent(ring, c); c.Close() }()
		}
	}()
	t.Setenv("SSH_AUTH_SOCK", sock)
	f.cfg.IdentityFile = ""
	f.cfg.UseAgent = true
	dial(t, f.cfg)
}

func TestConnectionRefused(t *testing.T) {
	isolate(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cfg := Config{Host: "127.0.0.1", Port: port, User: "u", PasswordEnv: "X", Timeout: time.Second,
		KnownHostsFile: filepath.Join(t.TempDir(), "kh")}
	t.Setenv("X", "pw")
	_, err = Dial(context.Background(), cfg)
	if !errors.Is(err, ErrConnRefused) || !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("err = %v, want ErrConnRefused", err)
	}
}

func TestHandshakeTimeout(t *testing.T) {
	isolate(t)
	// A listener that accepts and never speaks SSH.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		var held []net.Conn
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	t.Setenv("X", "pw")
	cfg := Config{Host: "127.0.0.1", Port: ln.Addr().(*net.TCPAddr).Port, User: "u", PasswordEnv: "X",
		Timeout: 200 * time.Millisecond, KnownHostsFile: filepath.Join(t.TempDir(), "kh")}
	start := time.Now()
	_, err = Dial(context.Background(), cfg)
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Dial took %v with a 200ms timeout", d)
	}

	// The caller's context is honoured too, and reported as such.
	cfg.Timeout = time.Minute
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	if _, err = Dial(ctx, cfg); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: err = %v, want context.Canceled", err)
	}
}

func TestProxyJump(t *testing.T) {
	f, jump := jumpFixture(t, false)

	// The jump host's key is checked against the same file: unknown first.
	if _, err := Dial(context.Background(), f.cfg); !errors.Is(err, ErrUnknownHost) ||
		!strings.Contains(err.Error(), "jump host") {
		t.Fatalf("unknown jump host: err = %v", err)
	}

	f.cfg.KnownHostsFile = writeKnownHosts(t, t.TempDir(), knownLine(jump), knownLine(f.srv))
	c := dial(t, f.cfg)
	if out, err := c.Run(context.Background(), "cat /etc/os-release"); err != nil || out.Stdout != "ID=ubuntu\nVERSION_ID=\"22.04\"\n" {
		t.Fatalf("Run via jump: %+v, %v", out, err)
	}
	_, jumpUsers, _, forwards, _ := jump.snapshot()
	if len(forwards) != 1 || forwards[0] != f.srv.addr() {
		t.Errorf("jump forwarded to %v, want [%s]", forwards, f.srv.addr())
	}
	if len(jumpUsers) != 1 || jumpUsers[0] != "bastion" {
		t.Errorf("jump users %v", jumpUsers)
	}
	if received, _, _, _, _ := f.srv.snapshot(); len(received) != 1 {
		t.Errorf("target received %v", received)
	}
}

func TestSSHConfigFillsGaps(t *testing.T) {
	f := setup(t)
	conf := filepath.Join(f.dir, "config")
	body := fmt.Sprintf("Host leaf1\n  HostName 127.0.0.1\n  Port %d\n  User fromconfig\n  IdentityFile %s\n",
		f.srv.port, f.keyPath)
	if err := os.WriteFile(conf, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := f.cfg
	cfg.Host, cfg.Port, cfg.User, cfg.IdentityFile, cfg.SSHConfigFile = "leaf1", 0, "", "", conf
	dial(t, cfg)

	// What the inventory sets wins.
	cfg.User = "inventory"
	dial(t, cfg)
	if _, users, _, _, _ := f.srv.snapshot(); strings.Join(users, ",") != "fromconfig,inventory" {
		t.Errorf("users = %v", users)
	}

	// SSHConfigFile "" disables it (checked without dialling: "leaf1" must not reach DNS).
	cfg.SSHConfigFile = ""
	r, err := resolve(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.target != (Endpoint{User: "inventory", Host: "leaf1", Port: 22}) || r.IdentityFile != "" {
		t.Errorf("without ssh config: %+v, identity %q", r.target, r.IdentityFile)
	}
}
