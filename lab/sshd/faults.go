package sshd

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"strings"
	"time"
)

// Fault makes a device misbehave the way real devices do, so the auditor's handling of them
// can be tested end to end.
type Fault string

// The faults a device can have.
const (
	FaultNone Fault = ""
	// FaultRefuse: nothing listens on the device's port (connection refused).
	FaultRefuse Fault = "refuse"
	// FaultAuthFail: the server rejects every credential.
	FaultAuthFail Fault = "auth-fail"
	// FaultStall: a command prints part of its output, then nothing more, never exiting.
	FaultStall Fault = "stall"
	// FaultDrop: the connection is cut in the middle of the first command's output.
	FaultDrop Fault = "drop"
	// FaultGarbage: every command answers random bytes instead of its output.
	FaultGarbage Fault = "garbage"
	// FaultSlow: every command answers, but only after slowDelay (well past any sane timeout).
	FaultSlow Fault = "slow"
	// FaultFlood: every command answers with output that never ends (on a CLI, the first
	// "show" command; its prompt never comes back).
	FaultFlood Fault = "flood"
	// FaultNoPrompt: the login is accepted, then the terminal asks for a password and shows
	// nothing else, ever (exec commands print that and hang).
	FaultNoPrompt Fault = "no-prompt"
)

// Faults lists the modes, for help and validation.
func Faults() []Fault {
	return []Fault{FaultRefuse, FaultAuthFail, FaultStall, FaultDrop, FaultGarbage, FaultSlow, FaultFlood, FaultNoPrompt}
}

// ParseFault reads a mode name.
func ParseFault(s string) (Fault, error) {
	f := Fault(s)
	if !slices.Contains(Faults(), f) {
		names := make([]string, 0, len(Faults()))
		for _, m := range Faults() {
			names = append(names, string(m))
		}
		return "", fmt.Errorf("unknown fault %q (expected one of %s)", s, strings.Join(names, ", "))
	}
	return f, nil
}

// slowDelay is how long a slow device takes per command.
const slowDelay = 10 * time.Minute

// faultyExec answers cmd as the fault dictates; handled is false when the device answers
// normally. write sends stdout bytes as they come; cut drops the whole connection.
func (s *Server) faultyExec(ctx context.Context, cmd string, write func([]byte) error, cut func()) (exit int, handled bool) {
	switch s.cfg.Fault {
	case FaultStall:
		out, _, _ := s.cfg.Device.Exec(ctx, cmd)
		write([]byte(out[:len(out)/2]))
		<-ctx.Done() // the rest never comes
		return 0, true
	case FaultDrop:
		out, _, _ := s.cfg.Device.Exec(ctx, cmd)
		write([]byte(out[:len(out)/2]))
		cut()
		return 0, true
	case FaultGarbage:
		write(garbage(cmd))
		return 0, true
	case FaultSlow:
		t := time.NewTimer(slowDelay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return 0, true
		}
	case FaultFlood:
		flood(ctx, write)
		return 0, true
	case FaultNoPrompt:
		write([]byte(passwordPrompt))
		<-ctx.Done()
		return 0, true
	}
	return 0, false
}

// passwordPrompt is what a no-prompt device shows: a login that wants a second password.
const passwordPrompt = "\r\nPassword: "

// floodLine is what a flooding device repeats.
const floodLine = "Ethernet1/1 is up, line protocol is up\r\n"

// flood writes floodLine over and over until ctx ends or a write fails (SSH flow control
// paces it to the reader).
func flood(ctx context.Context, write func([]byte) error) {
	chunk := []byte(strings.Repeat(floodLine, 32<<10/len(floodLine)))
	for ctx.Err() == nil {
		if write(chunk) != nil {
			return
		}
	}
}

// garbage is 4 KiB of bytes that are the same for the same command, so runs repeat.
func garbage(cmd string) []byte {
	h := fnv.New64a()
	h.Write([]byte(cmd))
	r := rand.New(rand.NewPCG(h.Sum64(), 0x5eed))
	b := make([]byte, 4096)
	for i := range b {
		b[i] = byte(r.UintN(256))
	}
	return b
}

// shellCutoff is how much of an interactive session a stalling or dropping device sends
// before it stops: enough for the login prompt and the first command's echo.
const shellCutoff = 256

// faultyShell wraps an interactive session's stream as the fault dictates.
type faultyShell struct {
	ctx   context.Context
	fault Fault
	rw    interface {
		Read([]byte) (int, error)
		Write([]byte) (int, error)
	}
	cut     func()
	written int

	line     []byte // what is being typed (flood)
	flooding bool   // a "show" command was entered: its answer never ends
	asked    bool   // the password prompt was shown (no-prompt)
}

func (f *faultyShell) Read(p []byte) (int, error) {
	n, err := f.rw.Read(p)
	if f.fault == FaultFlood {
		for _, c := range p[:n] {
			switch {
			case c == '\r' || c == '\n':
				if strings.HasPrefix(strings.TrimSpace(string(f.line)), "show") {
					f.flooding = true
				}
				f.line = f.line[:0]
			case len(f.line) < 256:
				f.line = append(f.line, c)
			}
		}
	}
	return n, err
}

func (f *faultyShell) Write(p []byte) (int, error) {
	switch f.fault {
	case FaultFlood:
		if f.flooding {
			flood(f.ctx, func(b []byte) error { _, err := f.rw.Write(b); return err })
			return 0, f.ctx.Err()
		}
	case FaultNoPrompt:
		if !f.asked {
			f.asked = true
			if _, err := f.rw.Write([]byte(passwordPrompt)); err != nil {
				return 0, err
			}
		}
		return len(p), nil // what the CLI would have shown never reaches the screen
	case FaultGarbage:
		return f.rw.Write(garbage(string(p))[:min(len(p), 4096)])
	case FaultSlow:
		t := time.NewTimer(slowDelay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-f.ctx.Done():
			return 0, f.ctx.Err()
		}
	case FaultStall, FaultDrop:
		if f.written+len(p) > shellCutoff {
			if f.fault == FaultDrop {
				f.cut()
				return 0, fmt.Errorf("connection dropped")
			}
			<-f.ctx.Done()
			return 0, f.ctx.Err()
		}
	}
	f.written += len(p)
	return f.rw.Write(p)
}
