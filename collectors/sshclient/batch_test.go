package sshclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"testing/iotest"
	"time"

	"github.com/roceaudit/roceaudit/collectors"
)

// batchReplies is what the shell answers, command by command.
var batchReplies = map[string]reply{
	"ethtool -a eth0":             {stdout: "Pause parameters for eth0:\nRX: on\n"},
	"ethtool -a eth1":             {stdout: "no newline at the end", stderr: "warning\n"},
	"ethtool -a eth9":             {stderr: "netlink error: no device matches name (offset 24)\n", exit: 1},
	"ethtool -a eth8":             {stdout: "line\n", stderr: "partial err", exit: 2},
	"cat /etc/os-release":         {stdout: "ID=rhel\n"},
	"sleep 600":                   {slow: true},
	"sudo -n ethtool -a eth0":     {stdout: "as root\n"},
	"sudo -n cat /etc/os-release": {stdout: "ID=rhel as root\n"},
}

func shellServer(t *testing.T, shell bool) (*fixture, *Client) {
	t.Helper()
	f := setup(t)
	f.srv.mu.Lock()
	f.srv.replies, f.srv.shell = batchReplies, shell
	f.srv.mu.Unlock()
	return f, dial(t, f.cfg)
}

// A batch answers each command exactly as its own session would, in one session.
func TestRunBatchAnswersAsRunDoes(t *testing.T) {
	f, c := shellServer(t, true)
	cmds := []string{"ethtool -a eth0", "ethtool -a eth1", "ethtool -a eth9", "ethtool -a eth8", "cat /etc/os-release", "ethtool -a eth7"}
	outs, errs := c.RunBatch(context.Background(), cmds)
	batched, _, _, _, _ := f.srv.snapshot()
	if len(batched) != 1 {
		t.Fatalf("server got %d sessions, want 1: %q", len(batched), batched)
	}
	for i, cmd := range cmds {
		want, err := c.Run(context.Background(), cmd)
		if err != nil || errs[i] != nil {
			t.Fatalf("%q: Run error %v, batch error %v", cmd, err, errs[i])
		}
		if outs[i] != want {
			t.Errorf("%q: batch %+v, Run %+v", cmd, outs[i], want)
		}
	}
	if outs[5].ExitCode != 127 || outs[1].Stdout != "no newline at the end" || outs[3].Stderr != "partial err" {
		t.Errorf("answers: %+v", outs)
	}
}

// Each command passes the allowlist on its own; a refused one is never sent, the rest are.
func TestRunBatchRefusesEachCommand(t *testing.T) {
	f, c := shellServer(t, true)
	outs, errs := c.RunBatch(context.Background(), []string{"ethtool -a eth0", "reboot", "cat /etc/os-release", "ethtool -a 'eth0; reboot'"})
	if !errors.Is(errs[1], collectors.ErrNotAllowed) || !errors.Is(errs[3], collectors.ErrNotAllowed) || errs[0] != nil || errs[2] != nil {
		t.Fatalf("errs = %v", errs)
	}
	if outs[0].Stdout != batchReplies["ethtool -a eth0"].stdout || outs[2].Stdout != "ID=rhel\n" {
		t.Errorf("outs = %+v", outs)
	}
	received, _, _, _, _ := f.srv.snapshot()
	if len(received) != 1 || strings.Contains(received[0], "reboot") {
		t.Errorf("server received %q", received)
	}
}

func TestRunBatchSudoPrefixesEachCommand(t *testing.T) {
	f := setup(t)
	f.srv.replies, f.srv.shell = batchReplies, true
	f.cfg.Sudo = true
	outs, errs := dial(t, f.cfg).RunBatch(context.Background(), []string{"ethtool -a eth0", "sudo -n cat /etc/os-release"})
	if errs[0] != nil || errs[1] != nil || outs[0].Stdout != "as root\n" || outs[1].Stdout != "ID=rhel as root\n" {
		t.Fatalf("got %+v %v", outs, errs)
	}
	received, _, _, _, _ := f.srv.snapshot()
	if len(received) != 1 || !strings.HasPrefix(received[0], "exec /bin/sh -c '"+listHead+"sudo -n ethtool -a eth0; echo roceaudit-") ||
		strings.Contains(received[0], "sudo -n sudo") || strings.Contains(received[0], "sudo -n echo") {
		t.Errorf("server received %q", received)
	}
}

// A device whose shell is not POSIX (a network CLI takes the line as one command) gives back
// no markers: each command then goes in its own session, and so does every later batch.
func TestRunBatchFallsBackWithoutMarkers(t *testing.T) {
	f, c := shellServer(t, false)
	cmds := []string{"ethtool -a eth0", "ethtool -a eth9", "cat /etc/os-release"}
	for round := range 2 {
		outs, errs := c.RunBatch(context.Background(), cmds)
		for i, cmd := range cmds {
			r := batchReplies[cmd]
			if errs[i] != nil || outs[i] != (collectors.Output{Stdout: r.stdout, Stderr: r.stderr, ExitCode: int(r.exit)}) {
				t.Errorf("round %d: %q: %+v, %v", round, cmd, outs[i], errs[i])
			}
		}
	}
	received, _, _, _, _ := f.srv.snapshot()
	if len(received) != 1+3+3 {
		t.Errorf("server got %d sessions, want one failed batch then one per command: %q", len(received), received)
	}
}

// A command that stalls is stopped after cfg.Timeout; those after it still run, in a new session.
func TestRunBatchStalledCommandTimesOutAlone(t *testing.T) {
	f := setup(t)
	f.srv.replies, f.srv.shell = batchReplies, true
	f.cfg.Timeout = 500 * time.Millisecond
	c := dial(t, f.cfg)
	outs, errs := c.RunBatch(context.Background(), []string{"ethtool -a eth0", "sleep 600", "cat /etc/os-release", "ethtool -a eth9"})
	if errs[0] != nil || outs[0].Stdout != batchReplies["ethtool -a eth0"].stdout {
		t.Errorf("before the stall: %+v, %v", outs[0], errs[0])
	}
	if !errors.Is(errs[1], ErrTimeout) || !errors.Is(errs[1], context.DeadlineExceeded) || !strings.Contains(errs[1].Error(), `"sleep 600"`) {
		t.Errorf("stalled: %v", errs[1])
	}
	if errs[2] != nil || outs[2].Stdout != "ID=rhel\n" || errs[3] != nil || outs[3].ExitCode != 1 {
		t.Errorf("after the stall: %+v %v, %+v %v", outs[2], errs[2], outs[3], errs[3])
	}
	received, _, _, _, _ := f.srv.snapshot()
	if len(received) != 2 || strings.Contains(received[1], "sleep 600") || !strings.HasPrefix(received[1], "exec /bin/sh -c '"+listHead+"cat /etc/os-release;") {
		t.Errorf("sessions: %q", received)
	}
}

// A list cut short by the transport (the connection dropped, the channel closed without an
// exit status) is no sign that the shell cannot batch: the commands it left go in their own
// sessions (on a dead connection each fails with the transport's error), and the next list
// is batched again.
func TestRunBatchCutShortKeepsBatching(t *testing.T) {
	for _, tc := range []struct {
		name string
		cut  reply
	}{{"connection dropped", reply{stdout: "partial", drop: true}}, {"no exit status", reply{stdout: "partial", noExit: true}}} {
		t.Run(tc.name, func(t *testing.T) {
			f := setup(t)
			replies := maps.Clone(batchReplies)
			replies["ethtool -a eth5"] = tc.cut
			f.srv.mu.Lock()
			f.srv.replies, f.srv.shell = replies, true
			f.srv.mu.Unlock()
			c := dial(t, f.cfg)
			outs, errs := c.RunBatch(context.Background(), []string{"ethtool -a eth0", "ethtool -a eth5", "cat /etc/os-release"})
			if errs[0] != nil || outs[0].Stdout != batchReplies["ethtool -a eth0"].stdout {
				t.Errorf("before the cut: %+v %v", outs[0], errs[0])
			}
			if c.noBatch.Load() {
				t.Fatal("a transport failure turned batching off")
			}
			if tc.cut.drop {
				for _, err := range errs[1:] {
					if err == nil || !strings.Contains(err.Error(), "EOF") {
						t.Errorf("after the drop: %v, want the connection's end", err)
					}
				}
				return // nothing more can be sent on this connection
			}
			if !strings.Contains(fmt.Sprint(errs[1]), "without an exit status") || errs[2] != nil || outs[2].Stdout != "ID=rhel\n" {
				t.Errorf("after the cut: %+v %v, %+v %v", outs[1], errs[1], outs[2], errs[2])
			}
			outs, errs = c.RunBatch(context.Background(), []string{"ethtool -a eth0", "cat /etc/os-release"})
			received, _, _, _, _ := f.srv.snapshot()
			// The cut list, one session for each command it left, then the next list.
			if errs[0] != nil || errs[1] != nil || outs[1].Stdout != "ID=rhel\n" || len(received) != 4 || !strings.HasPrefix(received[3], "exec /bin/sh -c ") {
				t.Errorf("the next batch: %+v %v, sessions %q", outs, errs, received)
			}
		})
	}
}

// A server that never sends an exit status, before a shell that gives no markers, cuts every
// list short on a live connection: after the second such list the device gets one session
// per command, instead of a wasted list before every batch.
func TestRunBatchStopsAfterListsCutShortTwice(t *testing.T) {
	f := setup(t)
	f.srv.mu.Lock()
	f.srv.replies, f.srv.shell, f.srv.noExitStatus = batchReplies, false, true
	f.srv.mu.Unlock()
	c := dial(t, f.cfg)
	cmds := []string{"ethtool -a eth0", "ethtool -a eth9", "cat /etc/os-release"}
	wantSessions := []int{1 + 3, 2 * (1 + 3), 2*(1+3) + 3}
	for round, want := range wantSessions {
		outs, errs := c.RunBatch(context.Background(), cmds)
		for i, cmd := range cmds {
			if !strings.Contains(fmt.Sprint(errs[i]), "without an exit status") || outs[i].Stdout != batchReplies[cmd].stdout {
				t.Errorf("round %d: %q: %+v, %v", round, cmd, outs[i], errs[i])
			}
		}
		if received, _, _, _, _ := f.srv.snapshot(); len(received) != want {
			t.Fatalf("round %d: %d sessions in all, want %d: %q", round, len(received), want, received)
		}
		if got := c.noBatch.Load(); got != (round >= 1) {
			t.Errorf("round %d: noBatch %v", round, got)
		}
	}
}

// The caller's context ending stops the batch: what was answered stays, the rest fails.
func TestRunBatchCancelled(t *testing.T) {
	_, c := shellServer(t, true)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	outs, errs := c.RunBatch(ctx, []string{"ethtool -a eth0", "sleep 600", "cat /etc/os-release"})
	if errs[0] != nil || outs[0].Stdout == "" {
		t.Errorf("answered before: %+v %v", outs[0], errs[0])
	}
	for _, err := range errs[1:] {
		if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, ErrTimeout) {
			t.Errorf("after the deadline: %v", err)
		}
	}
}

// The splitter finds markers wherever writes cut them.
func TestSplitterAcrossWrites(t *testing.T) {
	const tok = "roceaudit-0123456789abcdef0123456789abcdef"
	stream := "a\nb" + tok + " 0\n" + tok + " 3\n" + "x" + tok + " 255\n" + "trailing"
	for size := 1; size <= len(stream); size += 7 {
		s := newSplitter(tok, true, nil)
		for i := 0; i < len(stream); i += size {
			_, _ = s.Write([]byte(stream[i:min(len(stream), i+size)]))
		}
		parts, status := s.result()
		if strings.Join(parts, "|") != "a\nb||x" || len(status) != 3 || status[1] != 3 || status[2] != 255 {
			t.Errorf("write size %d: %q %v", size, parts, status)
		}
	}
}

func TestSplitterMalformedMarkerStops(t *testing.T) {
	const tok = "roceaudit-0123456789abcdef0123456789abcdef"
	for _, stream := range []string{"a" + tok + " 0\nb" + tok + " x\nc" + tok + " 0\n", "a" + tok + " 0\nb" + tok + " 0 and more\n"} {
		s := newSplitter(tok, true, nil)
		_, _ = s.Write([]byte(stream))
		if parts, _ := s.result(); len(parts) != 1 || parts[0] != "a" {
			t.Errorf("%q: parts %q, want only the first", stream, parts)
		}
	}
	e := newSplitter(tok, false, nil)
	_, _ = e.Write([]byte("err" + tok + "\n" + tok + " 1\n"))
	if parts, _ := e.result(); len(parts) != 1 {
		t.Errorf("stderr: %q", parts)
	}
}

func TestSplitterCapsEachPart(t *testing.T) {
	const tok = "roceaudit-0123456789abcdef0123456789abcdef"
	s := newSplitter(tok, true, nil)
	big := strings.Repeat("x", MaxOutput+10)
	_, _ = s.Write([]byte(big + tok + " 0\nsmall" + tok + " 0\n"))
	parts, _ := s.result()
	if len(parts) != 2 || parts[0] != big[:MaxOutput]+TruncationMarker || parts[1] != "small" {
		t.Errorf("got %d parts, first %d bytes", len(parts), len(parts[0]))
	}
}

// BenchmarkSplitter is one batch's stdout, as 20 answers of 4 KiB in 1 KiB reads and as 300
// short answers in 32 KiB reads (what ReadFrom's buffer takes at once). A builder per part
// (287 µs, 182 KB, 91 allocs for the first) beat one buffer per stream with the parts as
// substrings of it (448 µs, 464 KB, 32 allocs): the buffer's doublings and the final copy
// cost more than the builders' growth. Copying the rest of a read after each marker made
// the second quadratic in a read's parts: 84 -> 62 KB per op read in place (and faster in
// every run, by 1.3-3x; this shared machine's times are too noisy to quote closer).
func BenchmarkSplitter(b *testing.B) {
	const tok = "roceaudit-0123456789abcdef0123456789abcdef"
	for _, c := range []struct {
		name        string
		parts, size int
		read        int
	}{{"large", 20, 4096, 1024}, {"short", 300, 100, 32 << 10}} {
		var stream strings.Builder
		for i := range c.parts {
			stream.WriteString(strings.Repeat("x", c.size-1) + "\n")
			stream.WriteString(tok + " " + strconv.Itoa(i%3) + "\n")
		}
		data := []byte(stream.String())
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				s := newSplitter(tok, true, nil)
				for i := 0; i < len(data); i += c.read {
					_, _ = s.Write(data[i:min(len(data), i+c.read)])
				}
				if parts, _ := s.result(); len(parts) != c.parts {
					b.Fatalf("%d parts", len(parts))
				}
			}
		})
	}
}

// io.Copy goes through ReadFrom (pooled buffers); the parts are the same.
func TestSplitterReadFrom(t *testing.T) {
	const tok = "roceaudit-0123456789abcdef0123456789abcdef"
	s := newSplitter(tok, true, nil)
	if _, err := io.Copy(s, iotest.OneByteReader(strings.NewReader("a\n"+tok+" 0\nb"+tok+" 7\n"))); err != nil {
		t.Fatal(err)
	}
	if parts, status := s.result(); strings.Join(parts, "|") != "a\n|b" || status[1] != 7 {
		t.Errorf("parts %q status %v", parts, status)
	}
}

// Whatever the login shell sshd hands the line to, the list runs in /bin/sh and the splitter
// gives back each command's stdout, stderr and exit code as /bin/sh running it alone does.
func TestBatchListInRealShells(t *testing.T) {
	// cat reads stdin: the list's, /dev/null, not the channel the client holds open.
	cmds := []string{"echo one", "printf no-newline", "cat /nonexistent-roceaudit", "false", "nosuchcommand-roceaudit", "printf 'x\\n' >&2; echo y", "exit 0 | true", "cat", "echo last"}
	ran := 0
	for _, shell := range []string{"/bin/sh", "/bin/bash", "/bin/dash", "/bin/csh", "/bin/tcsh", "/usr/bin/fish", "/bin/zsh"} {
		if _, err := os.Stat(shell); err != nil {
			continue
		}
		ran++
		tok := newToken()
		out, errOut := newSplitter(tok, true, nil), newSplitter(tok, false, nil)
		cmd := sshdChild(exec.Command(shell, "-c", batchList(cmds, tok)))
		cmd.Stdout, cmd.Stderr = out, errOut
		// Open until Run returns, as the client holds the channel's stdin.
		if _, err := cmd.StdinPipe(); err != nil {
			t.Fatal(err)
		}
		if err := cmd.Run(); err != nil { // exit status 0
			t.Fatalf("%s: %v", shell, err)
		}
		waitGroupGone(t, cmd.Process.Pid, shell+": the list's watcher outlived it")
		parts, status := out.result()
		errParts, _ := errOut.result()
		if len(parts) != len(cmds) || len(errParts) != len(cmds) {
			t.Fatalf("%s: %d stdout parts, %d stderr parts for %d commands", shell, len(parts), len(errParts), len(cmds))
		}
		for i, c := range cmds {
			var so, se strings.Builder
			one := exec.Command("/bin/sh", "-c", c)
			one.Stdout, one.Stderr = &so, &se
			exit := 0
			if err := one.Run(); err != nil {
				var ee *exec.ExitError
				if !errors.As(err, &ee) {
					t.Fatal(err)
				}
				exit = ee.ExitCode()
			}
			// sh names the command line in some messages ("sh: 1: x: not found"): the list is
			// one line too, so they read the same.
			if parts[i] != so.String() || errParts[i] != se.String() || status[i] != exit {
				t.Errorf("%s %q: batch %q %q %d, alone %q %q %d", shell, c, parts[i], errParts[i], status[i], so.String(), se.String(), exit)
			}
		}
	}
	if ran == 0 {
		t.Skip("no POSIX shell here")
	}
}

// sshdChild starts cmd as sshd starts a session's command: in a session of its own, so
// that it leads its process group.
func sshdChild(cmd *exec.Cmd) *exec.Cmd {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	return cmd
}

// waitGroupGone waits (bounded) until no process is left running in the process group pgid
// (a zombie has ended: it waits on a parent, here a slow-reaping init).
func waitGroupGone(t *testing.T, pgid int, msg string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		left := groupRunning(pgid)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: pids %v", msg, left)
		}
	}
}

func groupRunning(pgid int) []int {
	var left []int
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		if f, ok := statFields(pid); ok && f[0] != "Z" && f[2] == strconv.Itoa(pgid) {
			left = append(left, pid)
		}
	}
	return left
}

// When the client closes stdin (a stop, or the connection gone), the list's command that
// runs is stopped on the host, whichever POSIX shell runs the list: TERM, and KILL for one
// that ignores TERM. Nothing of the list is left.
func TestBatchListStopsInRealShells(t *testing.T) {
	ran := 0
	for _, shell := range [][]string{{"/bin/sh"}, {"/bin/bash"}, {"/bin/dash"}, {"/bin/busybox", "sh"}} {
		if _, err := os.Stat(shell[0]); err != nil {
			continue
		}
		ran++
		for _, stall := range []string{"sleep 600", `sh -c "trap '' TERM; exec sleep 600"`} {
			t.Run(strings.Join(shell, " ")+" "+stall, func(t *testing.T) {
				tok := newToken()
				tick := make(chan struct{}, 1)
				out := newSplitter(tok, true, tick)
				cmd := sshdChild(exec.Command(shell[0], append(shell[1:], "-c", markedList([]string{"echo one", stall, "echo two"}, tok))...))
				cmd.Stdout = out
				stdin, err := cmd.StdinPipe()
				if err != nil {
					t.Fatal(err)
				}
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				select {
				case <-tick:
				case <-time.After(10 * time.Second):
					t.Fatal("the first command never answered")
				}
				// The stalled command runs (and ignores TERM, where it does) before the stop.
				for deadline := time.Now().Add(10 * time.Second); !slices.ContainsFunc(groupRunning(cmd.Process.Pid), func(pid int) bool {
					c, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
					return string(c) == "sleep\x00600\x00"
				}); time.Sleep(20 * time.Millisecond) {
					if time.Now().After(deadline) {
						t.Fatal("the stalled command never ran")
					}
				}
				stdin.Close()
				done := make(chan error, 1)
				go func() { done <- cmd.Wait() }()
				select {
				case <-done:
				case <-time.After(10 * time.Second):
					_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
					t.Fatal("the list still runs after its stdin closed")
				}
				waitGroupGone(t, cmd.Process.Pid, "a process of the list is left")
				if parts, _ := out.result(); len(parts) != 1 || parts[0] != "one\n" {
					t.Errorf("parts %q", parts)
				}
			})
		}
	}
	if ran == 0 {
		t.Skip("no POSIX shell here")
	}
}

// A batch whose list would pass maxListBytes is cut into lists that do not, run side by
// side; every command is still answered as its own.
func TestRunBatchCutsLongLists(t *testing.T) {
	f, c := shellServer(t, true)
	var cmds []string
	for i := range 600 {
		cmds = append(cmds, fmt.Sprintf("ethtool -a eth%d", 1000+i))
	}
	outs, errs := c.RunBatch(context.Background(), cmds)
	for i, cmd := range cmds {
		if errs[i] != nil || outs[i].ExitCode != 127 || outs[i].Stderr != "sh: "+cmd+": not found\n" {
			t.Fatalf("%q: %+v %v", cmd, outs[i], errs[i])
		}
	}
	received, _, _, _, _ := f.srv.snapshot()
	if len(received) < 2 {
		t.Fatalf("one session for %d commands", len(cmds))
	}
	for _, r := range received {
		if len(r) > maxListBytes {
			t.Errorf("a list of %d bytes, over %d", len(r), maxListBytes)
		}
	}
	if c.noBatch.Load() {
		t.Error("fell back to one session per command")
	}
}

func TestGraceSecondsRoundsUp(t *testing.T) {
	for d, want := range map[time.Duration]int{time.Second: 1, 1500 * time.Millisecond: 2, 100 * time.Millisecond: 1, 3 * time.Second: 3} {
		if got := graceSeconds(d); got != want {
			t.Errorf("graceSeconds(%s) = %d, want %d", d, got, want)
		}
	}
}

func TestCutList(t *testing.T) {
	cmds := []string{strings.Repeat("a", 100), strings.Repeat("b", 100), "it's", strings.Repeat("c", 1000)}
	parts := cutList(cmds, []int{0, 1, 2, 3}, 2*(100+listOverhead)+listBase)
	if len(parts) != 3 || !slices.Equal(parts[0], []int{0, 1}) || !slices.Equal(parts[1], []int{2}) || !slices.Equal(parts[2], []int{3}) {
		t.Errorf("parts %v", parts)
	}
	tok := newToken()
	for _, p := range parts[:2] {
		var sel []string
		for _, i := range p {
			sel = append(sel, collectors.SudoPrefix+cmds[i])
		}
		if n := len(batchList(sel, tok)); n > 2*(100+listOverhead)+listBase {
			t.Errorf("list of %v is %d bytes", p, n)
		}
	}
}

// However writes cut a stream, the splitter finds what it finds in the stream written at once:
// parts, statuses, and where it stops believing markers.
func FuzzSplitterWritesAgreeWithOneWrite(f *testing.F) {
	const tok = "roceaudit-0123456789abcdef0123456789abcdef"
	f.Add([]byte("a\nb"+tok+" 0\nrr"+tok[:20]+"x"+tok+" 3\n"+tok[:41]), []byte{1, 7, 41, 2})
	f.Add([]byte("x"+tok+" 12\n"+tok+"\nroce"+tok+" 1 2\n"), []byte{3})
	f.Fuzz(func(t *testing.T, stream, cuts []byte) {
		whole := newSplitter(tok, true, nil)
		_, _ = whole.Write(stream)
		cut := newSplitter(tok, true, nil)
		for i, c := 0, 0; i < len(stream); c++ {
			n := 1
			if len(cuts) > 0 {
				n = 1 + int(cuts[c%len(cuts)])%64
			}
			_, _ = cut.Write(stream[i:min(len(stream), i+n)])
			i += n
		}
		wp, ws := whole.result()
		cp, cs := cut.result()
		if !slices.Equal(wp, cp) || !slices.Equal(ws, cs) {
			t.Errorf("cut writes: %q %v\none write: %q %v", cp, cs, wp, ws)
		}
	})
}

// Only an end that could begin the token is kept for the next write.
func TestMarkerStart(t *testing.T) {
	tok := []byte("roceaudit-0123")
	for data, want := range map[string]int{"": 0, "abc": 0, "abcr": 1, "abcroce": 4, "roceaudit-012": 13, "xroceaudit-012": 13, "rrr": 1, "roceaudix": 0, "r-roc": 3} {
		if got := markerStart([]byte(data), tok); got != want {
			t.Errorf("markerStart(%q) = %d, want %d", data, got, want)
		}
	}
}

// TestBatchListQuotesInOneAllocation holds batchList to the plain construction (the list,
// single-quoted, after `exec /bin/sh -c`) and to one allocation: its size is computed exactly.
func TestBatchListQuotesInOneAllocation(t *testing.T) {
	quote := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
	tok := newToken()
	for _, cmds := range [][]string{
		{"true"},
		{"grep -s -H -E '[^0:]' /sys/x/*", "echo ''", "cat /etc/nccl.conf"},
		{"'", "''", "a'b'c"},
	} {
		want := "exec /bin/sh -c " + quote(markedList(cmds, tok))
		if got := batchList(cmds, tok); got != want {
			t.Errorf("batchList(%q) =\n%s\nwant\n%s", cmds, got, want)
		}
		if n := testing.AllocsPerRun(10, func() { _ = batchList(cmds, tok) }); n != 1 {
			t.Errorf("batchList(%q) allocates %v times, want once (its size is known)", cmds, n)
		}
	}
}

// markedList is writeList's list of cmds, unquoted: what batchList has sh run.
func markedList(cmds []string, token string) string {
	var b strings.Builder
	writeList(&b, cmds, token, false)
	return b.String()
}

// A server that refuses exec fails each command of a batch with the refusal named once, not
// with x/crypto's wording, which spells out the whole batch line in every command's error.
func TestRunBatchOnAServerThatRefusesExec(t *testing.T) {
	f, c := shellServer(t, true)
	f.srv.mu.Lock()
	f.srv.refuseExec = true
	f.srv.mu.Unlock()
	cmds := []string{"ethtool -a eth0", "ethtool -a eth1", "cat /etc/os-release"}
	_, errs := c.RunBatch(context.Background(), cmds)
	for i, err := range errs {
		if !errors.Is(err, ErrExecRefused) {
			t.Fatalf("%q: %v, want the exec refusal", cmds[i], err)
		}
		for j, other := range cmds {
			if j != i && strings.Contains(err.Error(), other) {
				t.Errorf("%q's error names %q too: %v", cmds[i], other, err)
			}
		}
	}
	if _, err := c.Run(context.Background(), "ethtool -a eth0"); !errors.Is(err, ErrExecRefused) {
		t.Errorf("Run: %v, want the exec refusal", err)
	}
}

// A command that floods is stopped at MaxOutput, alone and in a batch, rather than read
// until its limit: it fails with ErrOutputTooLarge, not a timeout, and the batch's other
// commands are answered.
func TestFloodingCommandIsStoppedAtTheCap(t *testing.T) {
	f, _ := shellServer(t, true)
	f.srv.mu.Lock()
	f.srv.replies["cat /etc/os-release"] = reply{stdout: "ID=flood\n", flood: true}
	f.srv.mu.Unlock()
	f.cfg.Timeout = time.Minute // a timeout would take this long; the cap comes first
	c := dial(t, f.cfg)
	cmds := []string{"ethtool -a eth0", "cat /etc/os-release", "ethtool -a eth1"}
	outs, errs := c.RunBatch(context.Background(), cmds)
	if !errors.Is(errs[1], ErrOutputTooLarge) || errors.Is(errs[1], ErrTimeout) {
		t.Fatalf("the flood: %v, want ErrOutputTooLarge", errs[1])
	}
	for _, i := range []int{0, 2} {
		if errs[i] != nil || outs[i].Stdout == "" {
			t.Errorf("%q: %+v, %v", cmds[i], outs[i], errs[i])
		}
	}
	// The list was stopped at the flood and the rest sent as a list again: two sessions. (Read
	// to its end, the flood would have cut the list short, and the rest gone one by one.)
	if received, _, _, _, _ := f.srv.snapshot(); len(received) != 2 {
		t.Errorf("%d sessions, want 2: %q", len(received), received)
	}
	if _, err := c.Run(context.Background(), "cat /etc/os-release"); !errors.Is(err, ErrOutputTooLarge) {
		t.Errorf("Run of the flood: %v, want ErrOutputTooLarge", err)
	}
}
