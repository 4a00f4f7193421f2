package clishell

import (
	"bufio"
	"context"
	"io"
	"strings"
	"time"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// Shell runs an interactive CLI session on rw (an SSH channel with a PTY) until the user
// types exit, the client goes away or ctx ends. It prints the banner and the prompt
// (`NAME#`, or `NAME>` after disable), echoes what is typed (with backspace, Ctrl-C and
// Ctrl-D; terminal escape sequences are swallowed), and on Enter prints "\r\n", the answer
// with "\r\n" line ends and the prompt again.
func (c *CLI) Shell(ctx context.Context, rw io.ReadWriter, _ string) int {
	if cl, ok := rw.(io.Closer); ok {
		// A blocked Read only returns when the channel closes.
		stop := context.AfterFunc(ctx, func() { _ = cl.Close() })
		defer stop()
	}
	r, w := bufio.NewReader(rw), bufio.NewWriter(rw)
	var name string
	c.State.Read(func(sw *switchstate.Switch) { name = sw.Name })
	priv := true
	prompt := func() string {
		if priv {
			return name + "#"
		}
		return name + ">"
	}
	_, _ = w.WriteString(c.dialect.Banner + prompt())
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
			out, _, act := c.answer(string(line), priv, len(prompt()))
			line = line[:0]
			if !c.wait(ctx) {
				return 0
			}
			switch act {
			case ActExit:
				_ = w.Flush()
				return 0
			case ActEnable:
				priv = true
			case ActDisable:
				priv = false
			}
			_, _ = w.WriteString(crlf(out) + prompt())
		case b == 0x7f || b == 0x08:
			if len(line) > 0 {
				line = line[:len(line)-1]
				_, _ = w.WriteString("\b \b")
			}
		case b == 0x03: // Ctrl-C abandons the line
			line = line[:0]
			_, _ = w.WriteString("^C\r\n" + prompt())
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
func (c *CLI) wait(ctx context.Context) bool {
	if c.Latency <= 0 {
		return true
	}
	t := time.NewTimer(c.Latency)
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
