// Package opensshd runs the real OpenSSH server (Debian's openssh-server) on 127.0.0.1 for
// integration tests: its own configuration, host key and authorized keys in a temporary
// directory, nothing of the machine's /etc/ssh used. Only tests import it.
//
// Where sshd is not installed the tests that need it are skipped on a developer machine and
// fail in CI (CI=true), whose script installs it: a real component is never silently skipped
// there.
package opensshd

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/roceaudit/roceaudit/internal/syncbuf"
	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

// Binary is where Debian installs the server.
const Binary = "/usr/sbin/sshd"

// TestUser is the unprivileged account the CI script creates for non-root logins
// (useradd -m roceaudit-ci); its sudo rights come from the drop-in a test writes.
const TestUser = "roceaudit-ci"

// Require skips (or, in CI, fails) a test that needs the real sshd.
func Require(t testing.TB) {
	t.Helper()
	if _, err := os.Stat(Binary); err != nil {
		missing(t, "OpenSSH server %s not installed (apt-get install openssh-server)", Binary)
	}
	if os.Geteuid() != 0 {
		missing(t, "the real-sshd tests log in as several users and need root")
	}
}

// RequireUser skips (or fails in CI) when the unprivileged test account is missing.
func RequireUser(t testing.TB) *user.User {
	t.Helper()
	u, err := user.Lookup(TestUser)
	if err != nil {
		missing(t, "user %s missing (useradd -m -s /bin/bash -p '*' %s)", TestUser, TestUser)
	}
	return u
}

func missing(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("CI must provide this: "+format, args...)
	}
	t.Skipf(format, args...)
}

// Server is one running sshd.
type Server struct {
	Port    int
	Dir     string
	HostKey ssh.PublicKey
	cmd     *exec.Cmd
	log     *syncbuf.Buffer
}

// Options shape a server.
type Options struct {
	// AuthorizedKeys are accepted for every user (one file shared by all logins).
	AuthorizedKeys []ssh.PublicKey
	// Extra lines appended to sshd_config.
	Extra []string
}

// Start runs sshd on a free 127.0.0.1 port until the test ends, and waits until it accepts
// connections.
func Start(t testing.TB, o Options) *Server {
	t.Helper()
	Require(t)
	// sshd refuses to start without its privilege-separation directory.
	if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
		t.Fatalf("privilege separation dir: %v", err)
	}
	// sshd reads the authorized keys as the logged-in user: every directory above them must
	// be traversable by the unprivileged test account too, which t.TempDir's (0700) is not.
	dir, err := os.MkdirTemp("", "roceaudit-sshd-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	s := &Server{Dir: dir, log: &syncbuf.Buffer{}}
	hostKeyFile := filepath.Join(dir, "ssh_host_ed25519_key")
	s.HostKey = writeKey(t, hostKeyFile)
	var ak bytes.Buffer
	for _, k := range o.AuthorizedKeys {
		ak.Write(ssh.MarshalAuthorizedKey(k))
	}
	akFile := filepath.Join(dir, "authorized_keys")
	if err := os.WriteFile(akFile, ak.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	s.Port = freePort(t)
	conf := []string{
		"Port " + strconv.Itoa(s.Port),
		"ListenAddress 127.0.0.1",
		"HostKey " + hostKeyFile,
		"PidFile " + filepath.Join(dir, "sshd.pid"),
		"AuthorizedKeysFile " + akFile,
		"StrictModes no",
		"PubkeyAuthentication yes",
		"PasswordAuthentication no",
		"KbdInteractiveAuthentication no",
		"UsePAM no",
		"PermitRootLogin prohibit-password",
		"AllowTcpForwarding yes",
		"LogLevel VERBOSE",
		"MaxStartups 100:30:200",
	}
	conf = append(conf, o.Extra...)
	cfgFile := filepath.Join(dir, "sshd_config")
	if err := os.WriteFile(cfgFile, []byte(strings.Join(conf, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// -D: stay in the foreground (the test owns the process); -e: log to stderr.
	s.cmd = exec.Command(Binary, "-D", "-e", "-f", cfgFile)
	s.cmd.Stdout, s.cmd.Stderr = s.log, s.log
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("start sshd: %v", err)
	}
	t.Cleanup(func() {
		_ = s.cmd.Process.Kill()
		_ = s.cmd.Wait()
		if t.Failed() {
			t.Logf("sshd on port %d logged:\n%s", s.Port, s.log.String())
		}
	})
	s.waitReady(t)
	return s
}

// Addr is host:port.
func (s *Server) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.Port)) }

// KnownHostsLine is the known_hosts entry for this server, plain or hashed (as ssh-keygen -H
// writes them).
func (s *Server) KnownHostsLine(hashed bool) string {
	host := "[127.0.0.1]:" + strconv.Itoa(s.Port)
	if hashed {
		host = hashHost(host)
	}
	return host + " " + strings.TrimSpace(string(ssh.MarshalAuthorizedKey(s.HostKey)))
}

// Log is what sshd has printed so far.
func (s *Server) Log() string { return s.log.String() }

func (s *Server) waitReady(t testing.TB) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		c, err := net.DialTimeout("tcp", s.Addr(), time.Second)
		if err == nil {
			// Read the banner: the port is sshd's, not a stale listener's.
			line, _ := bufio.NewReader(c).ReadString('\n')
			c.Close()
			if strings.HasPrefix(line, "SSH-2.0-OpenSSH") {
				return
			}
		}
		if s.cmd.ProcessState != nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("sshd on port %d did not come up; it logged:\n%s", s.Port, s.log.String())
}

// NewClientKey writes an ed25519 private key (OpenSSH format, mode 0600) to path and returns
// its public half.
func NewClientKey(t testing.TB, path string) ssh.PublicKey {
	t.Helper()
	return writeKey(t, path)
}

func writeKey(t testing.TB, path string) ssh.PublicKey {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	block, err := ssh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	sp, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// SudoersDropIn installs /etc/sudoers.d/<name> for the test and removes it afterwards; sudo
// reads drop-ins on every call, so no restart is needed. visudo checks it first: a bad file
// there would lock sudo for the whole machine.
func SudoersDropIn(t testing.TB, name, content string) {
	t.Helper()
	path := filepath.Join("/etc/sudoers.d", name)
	tmp := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(tmp, []byte(content), 0o440); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("visudo", "-c", "-f", tmp).CombinedOutput(); err != nil {
		t.Fatalf("sudoers drop-in rejected by visudo: %v\n%s", err, out)
	}
	if err := os.WriteFile(path, []byte(content), 0o440); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Remove(path) })
}

func (s *Server) String() string { return fmt.Sprintf("sshd %s", s.Addr()) }

// hashHost writes host as ssh-keygen -H does ("|1|salt|hmac").
func hashHost(host string) string { return knownhosts.HashHostname(host) }
