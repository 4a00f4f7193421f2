package labtest

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/scrapli/scrapligo/driver/network"
	"github.com/scrapli/scrapligo/driver/options"
	"github.com/scrapli/scrapligo/platform"
	"github.com/scrapli/scrapligo/transport"

	"github.com/roceaudit/roceaudit/lab/sshd"
)

// typeKeys feeds keys to an interactive session as typed and returns the screen it leaves and
// its exit status. The session ends when it reads exit or runs out of keys.
func typeKeys(sh sshd.Shell, keys string) (screen string, exit int) {
	var out bytes.Buffer
	exit = sh.Shell(context.Background(), struct {
		io.Reader
		io.Writer
	}{strings.NewReader(keys), &out}, "xterm")
	return out.String(), exit
}

// ExpectTranscript types keys into a session and checks that it leaves exactly the screen
// want and ends with exit status 0.
func ExpectTranscript(t testing.TB, sh sshd.Shell, keys, want string) {
	t.Helper()
	if screen, exit := typeKeys(sh, keys); exit != 0 || screen != want {
		t.Errorf("exit %d, screen:\n%q\nwant:\n%q", exit, screen, want)
	}
}

// ExpectShellEndsWithContext checks that a session waiting for keys ends when its context
// does.
func ExpectShellEndsWithContext(t testing.TB, sh sshd.Shell) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan int)
	go func() {
		done <- sh.Shell(ctx, struct {
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

// ExpectShellLatency checks that every answer of a session waits latency (the session's
// own setting), as sshd makes exec wait.
func ExpectShellLatency(t testing.TB, sh sshd.Shell, latency time.Duration) {
	t.Helper()
	start := time.Now()
	typeKeys(sh, "terminal length 0\r\nexit\r\n")
	if took := time.Since(start); took < 2*latency {
		t.Errorf("two answers took %v, want at least %v", took, 2*latency)
	}
}

// ExpectScrapliSession drives dev over SSH with scrapligo's network driver for platformName
// ("arista_eos", "cisco_nxos"), as the interactive collector does: every command of cmds
// comes back unflagged and exactly as exec renders it, one after the other without mixing;
// "show foo" is flagged failed with a result refused accepts, and "configure terminal" is
// flagged failed.
func ExpectScrapliSession(t testing.TB, platformName string, dev sshd.Device, cmds []string, refused func(result string) bool) {
	t.Helper()
	d := openScrapli(t, platformName, StartSSH(t, dev, "admin"))
	for _, cmd := range cmds {
		r, err := d.SendCommand(cmd)
		if err != nil {
			t.Fatalf("%q: %v", cmd, err)
		}
		want, _, _ := dev.Exec(context.Background(), cmd)
		if r.Failed != nil || r.Result != TrimLines(want) {
			t.Errorf("%q: failed %v, result:\n%s\nwant:\n%s", cmd, r.Failed, r.Result, want)
		}
	}
	r, err := d.SendCommand("show foo")
	if err != nil {
		t.Fatal(err)
	}
	if r.Failed == nil || !refused(r.Result) {
		t.Errorf("show foo: failed %v, result %q", r.Failed, r.Result)
	}
	r, err = d.SendCommand("configure terminal")
	if err != nil || r.Failed == nil {
		t.Errorf("configure terminal was not refused: %v, %+v", err, r)
	}
}

// openScrapli opens scrapligo's network driver for platformName on the emulator over real
// SSH, as admin, until the test ends.
func openScrapli(t testing.TB, platformName string, srv Server) *network.Driver {
	t.Helper()
	p, err := platform.NewPlatform(platformName, "127.0.0.1",
		options.WithTransportType(transport.StandardTransport),
		options.WithPort(srv.Port),
		options.WithAuthUsername("admin"),
		options.WithStandardTransportPrivateKeyBytes(srv.ClientKey, ""),
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
		t.Fatalf("scrapligo %s open: %v", platformName, err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// TrimLines is text as scrapligo returns it: without trailing blanks on any line, nor
// leading or final newlines.
func TrimLines(s string) string {
	lines := strings.Split(strings.Trim(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}
