package labtest

import (
	"errors"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

// Dial connects to a running lab device as roceaudit with the lab's written client key and
// strict known_hosts, the way the auditor does.
func Dial(t testing.TB, identityPath, knownHostsPath, address string, port int) (*ssh.Client, error) {
	t.Helper()
	pemBytes, err := os.ReadFile(identityPath)
	if err != nil {
		t.Fatal(err)
	}
	key, err := ssh.ParsePrivateKey(pemBytes)
	if err != nil {
		t.Fatalf("parse %s: %v", identityPath, err)
	}
	hk, err := knownhosts.New(knownHostsPath)
	if err != nil {
		t.Fatalf("parse %s: %v", knownHostsPath, err)
	}
	return ssh.Dial("tcp", net.JoinHostPort(address, strconv.Itoa(port)), &ssh.ClientConfig{
		User: "roceaudit", Auth: []ssh.AuthMethod{ssh.PublicKeys(key)}, HostKeyCallback: hk, Timeout: 5 * time.Second,
	})
}

// RunSSH runs cmd in a new session of c: its stdout, stderr and exit status.
func RunSSH(t testing.TB, c *ssh.Client, cmd string) (string, string, int) {
	t.Helper()
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var out, errOut strings.Builder
	s.Stdout, s.Stderr = &out, &errOut
	err = s.Run(cmd)
	var ee *ssh.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("%q: %v", cmd, err)
	}
	exit := 0
	if ee != nil {
		exit = ee.ExitStatus()
	}
	return out.String(), errOut.String(), exit
}
