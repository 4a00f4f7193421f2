package sshd

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
)

// echoDevice answers "fail" with exit 3 and stderr, "block" by waiting for its context, and
// anything else by echoing it.
type echoDevice struct{ started, ended chan struct{} }

func (d echoDevice) Exec(ctx context.Context, cmd string) (string, string, int) {
	switch cmd {
	case "fail":
		return "", "it failed\n", 3
	case "block":
		close(d.started)
		<-ctx.Done()
		if d.ended != nil {
			close(d.ended)
		}
		return "", "", 130
	}
	return "ran: " + cmd + "\n", "", 0
}

// shellDevice adds an interactive CLI: a prompt, one line read, echoed back.
type shellDevice struct{ echoDevice }

func (shellDevice) Shell(_ context.Context, rw io.ReadWriter, term string) int {
	fmt.Fprintf(rw, "[%s] switch# ", term)
	line, _ := bufio.NewReader(rw).ReadString('\n')
	fmt.Fprintf(rw, "you said %s", line)
	return 0
}

func newSigner(t *testing.T) ssh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

type fixture struct {
	srv    *Server
	client ssh.Signer
	host   ssh.Signer
}

func start(t *testing.T, dev Device, latency time.Duration) fixture {
	t.Helper()
	f := fixture{client: newSigner(t), host: newSigner(t)}
	srv, err := Start(Config{Device: dev, HostKey: f.host, ClientKey: f.client.PublicKey(), User: "roceaudit", Latency: latency})
	if err != nil {
		t.Fatal(err)
	}
	f.srv = srv
	t.Cleanup(func() { _ = srv.Close() })
	return f
}

func (f fixture) dial(user string, key ssh.Signer) (*ssh.Client, error) {
	return ssh.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", f.srv.Port()), &ssh.ClientConfig{
		User:            user,
		Auth:            []ssh.AuthMethod{ssh.PublicKeys(key)},
		HostKeyCallback: ssh.FixedHostKey(f.host.PublicKey()),
		Timeout:         5 * time.Second,
	})
}

func run(t *testing.T, c *ssh.Client, cmd string) (string, string, int) {
	t.Helper()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	var out, errOut strings.Builder
	sess.Stdout, sess.Stderr = &out, &errOut
	err = sess.Run(cmd)
	var ee *ssh.ExitError
	switch {
	case err == nil:
		return out.String(), errOut.String(), 0
	case errors.As(err, &ee):
		return out.String(), errOut.String(), ee.ExitStatus()
	}
	t.Fatalf("%q: %v", cmd, err)
	return "", "", -1
}

func TestExecAndVersion(t *testing.T) {
	f := start(t, echoDevice{}, 0)
	c, err := f.dial("roceaudit", f.client)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if got := string(c.ServerVersion()); got != Version {
		t.Errorf("server version %q, want %q", got, Version)
	}
	if out, errOut, exit := run(t, c, "ibv_devinfo -v"); out != "ran: ibv_devinfo -v\n" || errOut != "" || exit != 0 {
		t.Errorf("exec = %q %q %d", out, errOut, exit)
	}
	if out, errOut, exit := run(t, c, "fail"); out != "" || errOut != "it failed\n" || exit != 3 {
		t.Errorf("failing exec = %q %q %d", out, errOut, exit)
	}
	// Several sessions on one connection, as a collector does.
	for i := range 3 {
		if out, _, _ := run(t, c, fmt.Sprint(i)); out != fmt.Sprintf("ran: %d\n", i) {
			t.Errorf("session %d got %q", i, out)
		}
	}
}

func TestAuthRejectsOthers(t *testing.T) {
	f := start(t, echoDevice{}, 0)
	if c, err := f.dial("roceaudit", newSigner(t)); err == nil {
		c.Close()
		t.Error("a foreign key was accepted")
	}
	if c, err := f.dial("root", f.client); err == nil {
		c.Close()
		t.Error("another user was accepted")
	}
}

func TestRejectsOtherChannels(t *testing.T) {
	f := start(t, echoDevice{}, 0)
	c, err := f.dial("roceaudit", f.client)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, _, err = c.OpenChannel("direct-tcpip", nil)
	var oce *ssh.OpenChannelError
	if !errors.As(err, &oce) || oce.Reason != ssh.UnknownChannelType {
		t.Errorf("direct-tcpip: %v, want an UnknownChannelType rejection", err)
	}
	// A device without a CLI refuses a shell.
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	if err := sess.Shell(); err == nil {
		t.Error("shell accepted by a device without a CLI")
	}
}

func TestShellSeam(t *testing.T) {
	f := start(t, shellDevice{}, 0)
	c, err := f.dial("roceaudit", f.client)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	if err := sess.RequestPty("vt100", 24, 80, ssh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	in, err := sess.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	sess.Stdout = &out
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	fmt.Fprint(in, "show version\n")
	if err := sess.Wait(); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "[vt100] switch# you said show version\n"; got != want {
		t.Errorf("shell transcript %q, want %q", got, want)
	}
}

func TestCloseStopsEverything(t *testing.T) {
	before := runtime.NumGoroutine()
	dev := echoDevice{started: make(chan struct{})}
	f := fixture{client: newSigner(t), host: newSigner(t)}
	srv, err := Start(Config{Device: dev, HostKey: f.host, ClientKey: f.client.PublicKey()})
	if err != nil {
		t.Fatal(err)
	}
	f.srv = srv
	c, err := f.dial("anyone", f.client)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	done := make(chan error, 1)
	go func() {
		sess, err := c.NewSession()
		if err != nil {
			done <- err
			return
		}
		done <- sess.Run("block")
	}()
	<-dev.started // a command is running and holds the connection open

	closed := make(chan error, 1)
	go func() { closed <- srv.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Errorf("Close: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not return while a command was running")
	}
	if err := <-done; err == nil {
		t.Error("the running command finished cleanly after Close")
	}
	if conn, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", srv.Port()), time.Second); err == nil {
		conn.Close()
		t.Error("listener still accepts after Close")
	}
	c.Close()
	// Everything the server started has ended (client-side goroutines wind down too).
	deadline := time.Now().Add(3 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines left, %d before Start:\n%s", n, before, buf[:runtime.Stack(buf, true)])
	}
}

func TestClientLeavingCancelsCommand(t *testing.T) {
	dev := echoDevice{started: make(chan struct{}), ended: make(chan struct{})}
	f := start(t, dev, 0)
	c, err := f.dial("roceaudit", f.client)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.Start("block"); err != nil {
		t.Fatal(err)
	}
	<-dev.started
	c.Close() // the client goes away mid-command
	select {
	case <-dev.ended:
	case <-time.After(5 * time.Second):
		t.Fatal("the command's context was not canceled when the client left")
	}
}
