package nxos

import (
	"bufio"
	"context"
	"io"
	"strings"
	"time"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// banner is what NX-OS prints when a CLI session starts.
const banner = "Cisco Nexus Operating System (NX-OS) Software\r\n" +
	"TAC support: http://www.cisco.com/tac\r\n" +
	"Copyright (C) 2002-2022, Cisco and/or its affiliates.\r\n" +
	"All rights reserved.\r\n"

// Shell runs an interactive CLI session on rw (an SSH channel with a PTY) until the user
// types exit, the client goes away or ctx ends. It prints the banner and the prompt, echoes
// what is typed (with backspace, Ctrl-C and Ctrl-D; terminal escape sequences are
// swallowed), and on Enter prints "\r\n", the answer with "\r\n" line ends and the prompt
// again. A refusal's caret counts the prompt, since the echoed line follows it.
func (s *Switch) Shell(ctx context.Context, rw io.ReadWriter, _ string) int {
	if c, ok := rw.(io.Closer); ok {
		// A blocked Read only returns when the channel closes.
		stop := context.AfterFunc(ctx, func() { _ = c.Close() })
		defer stop()
	}
	r, w := bufio.NewReader(rw), bufio.NewWriter(rw)
	var prompt string
	s.State.Read(func(sw *switchstate.Switch) { prompt = sw.Name + "#" })
	_, _ = w.WriteString(banner + prompt)
	var line []byte
	var prev byte
	esc := 0 // 1 after ESC, 2 inside a CSI sequence (ESC [ ... final byte)
	for {
		// Echo in one write per burst of input rather than one packet per byte.
		if r.Buffered() == 0 {
			if w.Flush() != nil {
				return 0
			}
		}
		b, err := r.ReadByte()
		if err != nil {
			return 0
		}
		cur := b
		switch {
		case esc == 1:
			esc = 0
			if b == '[' {
				esc = 2
			}
		case esc == 2:
			if b >= 0x40 && b <= 0x7e {
				esc = 0
			}
		case b == '\n' && prev == '\r':
			// The second half of a CRLF.
		case b == '\r' || b == '\n':
			_, _ = w.WriteString("\r\n")
			out, _, act := s.answer(string(line), len(prompt))
			line = line[:0]
			if !s.wait(ctx) {
				return 0
			}
			if act == actExit {
				_ = w.Flush()
				return 0
			}
			_, _ = w.WriteString(crlf(out) + prompt)
		case b == 0x7f || b == 0x08:
			if len(line) > 0 {
				line = line[:len(line)-1]
				_, _ = w.WriteString("\b \b")
			}
		case b == 0x03: // Ctrl-C abandons the line
			line = line[:0]
			_, _ = w.WriteString("^C\r\n" + prompt)
		case b == 0x04 && len(line) == 0: // Ctrl-D on an empty line logs out
			_ = w.Flush()
			return 0
		case b == 0x1b:
			esc = 1
		case b < 0x20:
			// Tab and other control keys: no completion here.
		default:
			line = append(line, b)
			_ = w.WriteByte(b)
		}
		prev = cur
	}
}

// wait applies the interactive latency; false when the session ended meanwhile.
func (s *Switch) wait(ctx context.Context) bool {
	if s.Latency <= 0 {
		return true
	}
	t := time.NewTimer(s.Latency)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// crlf turns an answer's "\n" line ends into the terminal's "\r\n".
func crlf(out string) string {
	if out == "" {
		return ""
	}
	if !strings.HasSuffix(out, "\n") {
		out += "\n"
	}
	return strings.ReplaceAll(out, "\n", "\r\n")
}
