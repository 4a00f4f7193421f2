package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/scrapli/scrapligo/util"

	"github.com/roceaudit/roceaudit/collectors"
)

// Run types one allowlisted command at the prompt and returns what the CLI printed between
// the echo and the next prompt, newline-terminated. A CLI complaint ("% Invalid input", …)
// is Output{Stderr: text, ExitCode: 1}, not an error. Refusals happen before anything is
// typed. Cancellation, a deadline, cfg.Timeout or a reply past sshclient.MaxOutput
// (ErrOutputTooLarge) closes the session (the CLI may still be printing, so the stream cannot
// be reused); a deadline or timeout is collectors.ErrNoPrompt with the device's last output.
func (s *Session) Run(ctx context.Context, command string) (collectors.Output, error) {
	if s.al == nil || !s.al.Allows(command) {
		return collectors.Output{}, fmt.Errorf("cli %s: %q: %w", s.target, command, collectors.ErrNotAllowed)
	}
	if i := strings.IndexFunc(command, lineEditorKey); i >= 0 {
		return collectors.Output{}, fmt.Errorf("cli %s: %q: %w: %q is a key the CLI line editor acts on",
			s.target, command, collectors.ErrNotAllowed, command[i])
	}
	select {
	case s.turn <- struct{}{}:
	case <-ctx.Done():
		return collectors.Output{}, s.wrapCtx(ctx.Err(), fmt.Sprintf("%q: waiting for the session", command))
	}
	defer func() { <-s.turn }()
	if s.closed.Load() {
		return collectors.Output{}, fmt.Errorf("cli %s: %q: %w", s.target, command, ErrClosed)
	}
	if err := ctx.Err(); err != nil {
		return collectors.Output{}, s.wrapCtx(err, fmt.Sprintf("%q", command))
	}

	type result struct {
		out string
		err error
	}
	done := make(chan result, 1)
	start := time.Now()
	go func() {
		out, err := s.send(command)
		done <- result{out, err}
	}()
	var res result
	select {
	case res = <-done:
	case <-ctx.Done():
		s.shutdown(false)
		<-done // returns promptly: the connection is gone
		if err := ctx.Err(); errors.Is(err, context.DeadlineExceeded) {
			// The caller's deadline (the device's) ends before the session's own timeout
			// would: the prompt that never came is the news, with what came instead.
			return collectors.Output{}, s.noPrompt(fmt.Sprintf("%q", command), time.Since(start), err)
		}
		return collectors.Output{}, s.wrapCtx(ctx.Err(), fmt.Sprintf("%q: running", command))
	}
	if res.err != nil {
		// Whatever the CLI prints next would be read as the next command's output.
		s.shutdown(false)
		switch {
		case errors.Is(res.err, ErrOutputTooLarge):
			return collectors.Output{}, fmt.Errorf("cli %s: %q: %w; last output from the device: %s",
				s.target, command, res.err, s.tr.tail.quoted())
		case errors.Is(res.err, util.ErrTimeoutError):
			return collectors.Output{}, s.noPrompt(fmt.Sprintf("%q", command), time.Since(start), nil)
		case errors.Is(res.err, util.ErrConnectionError):
			return collectors.Output{}, fmt.Errorf("cli %s: %q: the device closed the session: %w; last output from the device: %s",
				s.target, command, res.err, s.tr.tail.quoted())
		}
		return collectors.Output{}, fmt.Errorf("cli %s: %q: %w", s.target, command, res.err)
	}

	out := res.out
	if _, refused := collectors.Refusal(out, s.markers); refused {
		return collectors.Output{Stderr: out, ExitCode: 1}, nil
	}
	return collectors.Output{Stdout: out}, nil
}

// lineEditorKey reports characters that a switch CLI acts on before Enter: control keys
// (Ctrl-C, Ctrl-Z, Tab completion, a newline that would start a second command) and "?"
// (context help on EOS and NX-OS). The allowlist already excludes them; this does not rely
// on every template staying that way.
func lineEditorKey(r rune) bool {
	return r < 0x20 || r == 0x7f || r == '?'
}
