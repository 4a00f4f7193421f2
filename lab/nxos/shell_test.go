package nxos

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/scrapli/scrapligo/driver/network"
	"github.com/scrapli/scrapligo/driver/options"
	"github.com/scrapli/scrapligo/platform"
	"github.com/scrapli/scrapligo/transport"
	"golang.org/x/crypto/ssh"

	"github.com/roceaudit/roceaudit/lab/sshd"
)

// TestShellTranscript types a session's keystrokes and checks the screen byte for byte:
// banner, echo, CRLF and lone CR or LF as Enter, a swallowed arrow key, backspace, Ctrl-C, a
// caret that counts the prompt, and exit ending the session.
func TestShellTranscript(t *testing.T) {
	in := "terminal length 0\r\n" +
		"sh\x1b[Aow foo\n" +
		"abc\x7f\x7f\x7f\x03" +
		"exit\r\n" +
		"show version | json\r\n" // after exit: never read
	var out bytes.Buffer
	exit := New(leaf4()).Shell(context.Background(), struct {
		io.Reader
		io.Writer
	}{strings.NewReader(in), &out}, "xterm")
	want := banner + "leaf4#" +
		"terminal length 0\r\nleaf4#" +
		"show foo\r\n           ^\r\n% Invalid command at '^' marker.\r\nleaf4#" +
		"abc\b \b\b \b\b \b^C\r\nleaf4#" +
		"exit\r\n"
	if exit != 0 || out.String() != want {
		t.Errorf("exit %d, screen:\n%q\nwant:\n%q", exit, out.String(), want)
	}
}

func TestShellEndsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan int)
	go func() {
		done <- New(leaf4()).Shell(ctx, struct {
			io.ReadCloser
			io.Writer
		}{pr, io.Discard}, "xterm")
	}()
	cancel()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("Shell kept running after its context ended")
	}
	pw.Close()
}

// server is the emulator behind the lab's SSH server on 127.0.0.1.
type server struct {
	port      int
	clientKey []byte // OpenSSH PEM of the only key the server accepts
	hostKey   ssh.PublicKey
}

func startServer(t *testing.T, dev *Switch) server {
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
	srv, err := sshd.Start(sshd.Config{Device: dev, HostKey: hostKey, ClientKey: pub, User: "admin"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return server{port: srv.Port(), clientKey: pem.EncodeToMemory(blk), hostKey: hostKey.PublicKey()}
}

// openDriver opens scrapligo's cisco_nxos network driver on the emulator over real SSH.
func openDriver(t *testing.T, srv server) *network.Driver {
	t.Helper()
	p, err := platform.NewPlatform("cisco_nxos", "127.0.0.1",
		options.WithTransportType(transport.StandardTransport),
		options.WithPort(srv.port),
		options.WithAuthUsername("admin"),
		options.WithStandardTransportPrivateKeyBytes(srv.clientKey, ""),
		options.WithAuthNoStrictKey(), // this test's throwaway host key only
		options.WithTimeoutOps(5*time.Second),
		options.WithTimeoutSocket(5*time.Second),
	)
	if err != nil {
		t.Fatal(err)
	}
	d, err := p.GetNetworkDriver()
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Open(); err != nil {
		t.Fatalf("scrapligo cisco_nxos open: %v", err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// TestScrapligoSession drives the emulator with scrapligo's cisco_nxos driver over SSH, as
// the interactive collector does: every collector command comes back exactly as exec
// renders it, one after the other without mixing, and a refusal is flagged as failed.
func TestScrapligoSession(t *testing.T) {
	dev := New(leaf4())
	dev.now = func() time.Time { return time.Date(2026, 11, 30, 10, 2, 31, 0, time.UTC) }
	d := openDriver(t, startServer(t, dev))
	for _, cmd := range Commands() {
		r, err := d.SendCommand(cmd)
		if err != nil {
			t.Fatalf("%q: %v", cmd, err)
		}
		want, _, _ := dev.Exec(context.Background(), cmd)
		if r.Failed != nil || r.Result != trimLines(want) {
			t.Errorf("%q: failed %v, result:\n%s\nwant:\n%s", cmd, r.Failed, r.Result, want)
		}
	}
	r, err := d.SendCommand("show foo")
	if err != nil {
		t.Fatal(err)
	}
	if r.Failed == nil || !strings.HasSuffix(r.Result, "^\n% Invalid command at '^' marker.") {
		t.Errorf("show foo: failed %v, result %q", r.Failed, r.Result)
	}
	r, err = d.SendCommand("configure terminal")
	if err != nil || r.Failed == nil {
		t.Errorf("configure terminal was not refused: %v, %+v", err, r)
	}
}

// trimLines is text as scrapligo returns it: without trailing blanks on any line, nor
// leading or final newlines.
func trimLines(s string) string {
	lines := strings.Split(strings.Trim(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// TestShellLatency: every answer waits Latency, as sshd makes exec wait.
func TestShellLatency(t *testing.T) {
	dev := New(leaf4())
	dev.Latency = 40 * time.Millisecond
	start := time.Now()
	dev.Shell(context.Background(), struct {
		io.Reader
		io.Writer
	}{strings.NewReader("terminal length 0\r\nexit\r\n"), io.Discard}, "xterm")
	if took := time.Since(start); took < 2*dev.Latency {
		t.Errorf("two answers took %v, want at least %v", took, 2*dev.Latency)
	}
}
