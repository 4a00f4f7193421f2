package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/platforms"
	"github.com/roceaudit/roceaudit/collectors/sshclient"
)

func TestSessionJSONOutputIntact(t *testing.T) {
	for _, tc := range []struct {
		platform, prompt, invalid string
		replies                   map[string]string
		second                    string
	}{
		{"eos", "leaf1#", eosInvalid, eosReplies(), "show interfaces | json"},
		// NX-OS prompts end in a space.
		{"nxos", "nx1# ", nxosInvalid, nxosReplies(), "show interface | json"},
	} {
		t.Run(tc.platform, func(t *testing.T) {
			f := setup(t, tc.prompt, tc.invalid, tc.replies)
			s := dial(t, f.cfg, tc.platform)
			for _, cmd := range []string{"show version | json", tc.second} {
				out := run(t, s, cmd)
				want := collectors.Output{Stdout: tc.replies[cmd] + "\n"}
				if diff := cmp.Diff(want, out); diff != "" {
					t.Fatalf("%s: output (-want +got):\n%s", cmd, diff)
				}
				if !json.Valid([]byte(out.Stdout)) {
					t.Fatalf("%s: not JSON: %q", cmd, out.Stdout)
				}
			}
			if !s.Simulated() {
				t.Error("Simulated() = false for a server announcing roceaudit-lab")
			}
			if err := s.Close(); err != nil {
				t.Fatalf("Close: %v", err)
			}
			f.srv.waitExit(t)

			// What the session typed by itself is exactly what the descriptor publishes.
			typed := f.srv.typed()
			d, _ := platforms.Registry().Get(tc.platform)
			c, _ := d.CLI()
			setupIn := c.SetupInput
			want := append(append([]string(nil), setupIn[:len(setupIn)-1]...),
				"show version | json", tc.second, setupIn[len(setupIn)-1])
			if diff := cmp.Diff(want, typed); diff != "" {
				t.Errorf("typed lines (-want +got):\n%s", diff)
			}
			f.srv.mu.Lock()
			ptys := f.srv.ptys
			f.srv.mu.Unlock()
			if len(ptys) != 1 || ptys[0].Term != "xterm" || ptys[0].Width != termWidth {
				t.Errorf("pty requests = %+v, want one xterm %d wide", ptys, termWidth)
			}
		})
	}
}

func TestCLIErrorIsExitCodeOne(t *testing.T) {
	for _, tc := range []struct {
		platform, prompt, invalid string
		replies                   map[string]string
	}{
		{"eos", "leaf1#", eosInvalid, eosReplies()},
		{"nxos", "nx1#", nxosInvalid, nxosReplies()},
	} {
		t.Run(tc.platform, func(t *testing.T) {
			f := setup(t, tc.prompt, tc.invalid, tc.replies)
			s := dial(t, f.cfg, tc.platform)
			out := run(t, s, "show bogus")
			want := collectors.Output{Stderr: tc.invalid + "\n", ExitCode: 1}
			if diff := cmp.Diff(want, out); diff != "" {
				t.Fatalf("output (-want +got):\n%s", diff)
			}
			// The session is still in step afterwards.
			if out := run(t, s, "show version | json"); out.Stdout != tc.replies["show version | json"]+"\n" {
				t.Fatalf("after an error: %+v", out)
			}
		})
	}
}

func TestEmptyOutput(t *testing.T) {
	f := setup(t, "leaf1#", eosInvalid, eosReplies())
	s := dial(t, f.cfg, "eos")
	if diff := cmp.Diff(collectors.Output{}, run(t, s, "show lldp neighbors")); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
}

func TestAllowlistRefusalNeverReachesServer(t *testing.T) {
	f := setup(t, "leaf1#", eosInvalid, eosReplies())
	// Templates that would let line-editor keys through, to test the second guard.
	f.cfg.Allowlist = collectors.NewAllowlist("show version | json", "show version ?", "show\tver")
	s := dial(t, f.cfg, "eos")
	before := len(f.srv.typed())
	for _, cmd := range []string{
		"configure terminal",
		"show version | json\nconfigure terminal",
		"show version ?",
		"show\tver",
		"",
	} {
		_, err := s.Run(context.Background(), cmd)
		if !errors.Is(err, collectors.ErrNotAllowed) {
			t.Errorf("Run(%q) = %v, want ErrNotAllowed", cmd, err)
		}
	}
	run(t, s, "show version | json")
	if got := f.srv.typed()[before:]; !cmp.Equal(got, []string{"show version | json"}) {
		t.Fatalf("server saw %q after the refusals, want only the allowed command", got)
	}

	// A session with no allowlist refuses everything.
	f.cfg.Allowlist = nil
	s2 := dial(t, f.cfg, "eos")
	if _, err := s2.Run(context.Background(), "show version | json"); !errors.Is(err, collectors.ErrNotAllowed) {
		t.Fatalf("nil allowlist: %v", err)
	}
}

func TestSequentialCommandsStayInStep(t *testing.T) {
	replies := eosReplies()
	for i := range 20 {
		replies[fmt.Sprintf("show counter %d", i)] = fmt.Sprintf("{\n    \"port\": %d,\n    \"rx\": \"%d\"\n}", i, i*7919)
	}
	f := setup(t, "leaf1#", eosInvalid, replies)
	s := dial(t, f.cfg, "eos")
	for i := range 20 {
		cmd := fmt.Sprintf("show counter %d", i)
		if out := run(t, s, cmd); out.Stdout != replies[cmd]+"\n" {
			t.Fatalf("%s: got %q", cmd, out.Stdout)
		}
	}

	// Callers on several goroutines are serialised on the one CLI stream.
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := fmt.Sprintf("show counter %d", i)
			out, err := s.Run(context.Background(), cmd)
			switch {
			case err != nil:
				errs <- err
			case out.Stdout != replies[cmd]+"\n":
				errs <- fmt.Errorf("%s: got %q", cmd, out.Stdout)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestEnableFromExecPrompt(t *testing.T) {
	f := setup(t, "leaf1>", eosInvalid, eosReplies())
	f.srv.set(func(s *cliServer) { s.enable = "leaf1#" })
	s := dial(t, f.cfg, "eos")
	if out := run(t, s, "show version | json"); out.Stdout != eosVersionJSON+"\n" {
		t.Fatalf("got %+v", out)
	}
	if typed := f.srv.typed(); !contains(typed, "enable") {
		t.Fatalf("typed %q, want an enable", typed)
	}
}

func TestRunCancelClosesSession(t *testing.T) {
	f := setup(t, "leaf1#", eosInvalid, eosReplies())
	f.cfg.Timeout = 5 * time.Second
	f.srv.set(func(s *cliServer) { s.hang["show slow"] = true })
	s := dial(t, f.cfg, "eos")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	_, err := s.Run(ctx, "show slow")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run = %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("cancel took %s", d)
	}
	if _, err := s.Run(context.Background(), "show version | json"); !errors.Is(err, ErrClosed) {
		t.Fatalf("Run after cancel = %v, want ErrClosed", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close after cancel: %v", err)
	}

	// An already-cancelled context sends nothing.
	s2 := dial(t, f.cfg, "eos")
	before := len(f.srv.typed())
	if _, err := s2.Run(ctx, "show version | json"); !errors.Is(err, context.Canceled) {
		t.Fatalf("Run with a done ctx = %v", err)
	}
	if got := f.srv.typed()[before:]; len(got) != 0 {
		t.Fatalf("server saw %q", got)
	}
}

func TestServerHangsUpMidCommand(t *testing.T) {
	f := setup(t, "leaf1#", eosInvalid, eosReplies())
	f.srv.set(func(s *cliServer) { s.drop["show slow"] = true })
	s := dial(t, f.cfg, "eos")
	start := time.Now()
	_, err := s.Run(context.Background(), "show slow")
	if err == nil || errors.Is(err, sshclient.ErrTimeout) {
		t.Fatalf("Run = %v, want a connection error", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("noticing the hang-up took %s", d)
	}
	if _, err := s.Run(context.Background(), "show version | json"); !errors.Is(err, ErrClosed) {
		t.Fatalf("Run after hang-up = %v, want ErrClosed", err)
	}
}

func TestCloseDuringRun(t *testing.T) {
	f := setup(t, "leaf1#", eosInvalid, eosReplies())
	f.srv.set(func(s *cliServer) { s.hang["show slow"] = true })
	f.cfg.Timeout = 5 * time.Second
	s := dial(t, f.cfg, "eos")
	done := make(chan error, 1)
	go func() {
		_, err := s.Run(context.Background(), "show slow")
		done <- err
	}()
	for !contains(f.srv.typed(), "show slow") {
		time.Sleep(5 * time.Millisecond)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("Run survived Close")
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Run still blocked after Close")
	}
}

func TestPasswordFromEnvironment(t *testing.T) {
	f := setup(t, "nx1# ", nxosInvalid, nxosReplies())
	f.srv.set(func(s *cliServer) { s.authorized, s.password = nil, "s3cret" })
	f.cfg.IdentityFile = ""
	f.cfg.PasswordEnv = "ROCEAUDIT_CLI_TEST_PW"
	t.Setenv("ROCEAUDIT_CLI_TEST_PW", "wrong")
	if _, err := DialIn(context.Background(), f.cfg, platforms.Registry(), "nxos"); !errors.Is(err, sshclient.ErrAuth) {
		t.Fatalf("wrong password: Dial = %v, want ErrAuth", err)
	}
	t.Setenv("ROCEAUDIT_CLI_TEST_PW", "s3cret")
	if out := run(t, dial(t, f.cfg, "nxos"), "show version | json"); out.Stdout != nxosVersionJSON+"\n" {
		t.Fatalf("got %+v", out)
	}
}

func TestRunTimeouts(t *testing.T) {
	f := setup(t, "leaf1#", eosInvalid, eosReplies())
	f.srv.set(func(s *cliServer) { s.hang["show slow"] = true })

	t.Run("config timeout", func(t *testing.T) {
		cfg := f.cfg
		cfg.Timeout = 300 * time.Millisecond
		s := dial(t, cfg, "eos")
		_, err := s.Run(context.Background(), "show slow")
		if !errors.Is(err, sshclient.ErrTimeout) || !strings.Contains(err.Error(), "last output") {
			t.Fatalf("Run = %v, want ErrTimeout with the last output", err)
		}
		if _, err := s.Run(context.Background(), "show version | json"); !errors.Is(err, ErrClosed) {
			t.Fatalf("Run after timeout = %v, want ErrClosed", err)
		}
	})
	t.Run("ctx deadline", func(t *testing.T) {
		s := dial(t, f.cfg, "eos")
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		_, err := s.Run(ctx, "show slow")
		if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, sshclient.ErrTimeout) {
			t.Fatalf("Run = %v, want DeadlineExceeded and ErrTimeout", err)
		}
	})
}

func TestDialPromptMismatchTimesOut(t *testing.T) {
	// A Linux-style prompt is not an EOS prompt: the driver never sees one.
	f := setup(t, "admin@leaf1:~$ ", eosInvalid, eosReplies())
	f.cfg.Timeout = 400 * time.Millisecond
	start := time.Now()
	_, err := DialIn(context.Background(), f.cfg, platforms.Registry(), "eos")
	if !errors.Is(err, sshclient.ErrTimeout) {
		t.Fatalf("Dial = %v, want ErrTimeout", err)
	}
	for _, want := range []string{"admin@leaf1:~$", "prompt matching", `#\s?$`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("took %s", d)
	}
}

func TestDialCancelWhileOpening(t *testing.T) {
	f := setup(t, "leaf1#", eosInvalid, eosReplies())
	f.cfg.Timeout = 5 * time.Second
	f.srv.set(func(s *cliServer) { s.silent = true })
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(150*time.Millisecond, cancel)
	start := time.Now()
	_, err := DialIn(ctx, f.cfg, platforms.Registry(), "nxos")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Dial = %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("cancel took %s", d)
	}
}

func TestSimulatedFromBanner(t *testing.T) {
	f := setup(t, "nx1#", nxosInvalid, nxosReplies())
	f.srv.set(func(s *cliServer) { s.version = "SSH-2.0-OpenSSH_9.6" })
	if dial(t, f.cfg, "nxos").Simulated() {
		t.Fatal("Simulated() = true for a plain OpenSSH banner")
	}
}

func TestUnsupportedPlatform(t *testing.T) {
	f := setup(t, "leaf1#", eosInvalid, eosReplies())
	if _, err := DialIn(context.Background(), f.cfg, platforms.Registry(), "sonic"); err == nil || !strings.Contains(err.Error(), "eos, nxos") {
		t.Fatalf("Dial(sonic) = %v", err)
	}
	f.srv.mu.Lock()
	n := len(f.srv.conns)
	f.srv.mu.Unlock()
	if n != 0 {
		t.Fatalf("an unsupported platform still connected (%d connections)", n)
	}
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

// A device that floods its login never shows a prompt: opening its CLI reads up to the cap,
// then fails saying so, without waiting for the timeout.
func TestDialFloodStopsAtTheOutputCap(t *testing.T) {
	f := setup(t, "leaf1#", eosInvalid, eosReplies())
	f.cfg.Timeout = 30 * time.Second // a flood read to the end would run into this
	f.srv.set(func(s *cliServer) { s.flood = true })
	_, err := DialIn(context.Background(), f.cfg, platforms.Registry(), "eos")
	if !errors.Is(err, ErrOutputTooLarge) || errors.Is(err, sshclient.ErrTimeout) {
		t.Fatalf("Dial = %v, want ErrOutputTooLarge", err)
	}
	for _, want := range []string{"opening the eos CLI", "login banner without end"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}
