package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/scrapli/scrapligo/driver/opoptions"
	"github.com/scrapli/scrapligo/util"

	"github.com/roceaudit/roceaudit/collectors/sshclient"
)

// send is what SendCommand did for Run, on the driver's channel: type the command, read its
// echo, press return, read up to the prompt, and return the output as scrapligo would have
// recorded it, prompt stripped (stripPrompt) and newline-terminated. SendCommand read a reply
// into a slice grown by append (1.25x at a time: ~5x the reply in copies, 10 MB for NX-OS's
// 2 MB queuing JSON), then copied it again to add it to nothing, split it into a slice per
// line to trim trailing spaces, joined the lines, made a string of that and searched the
// string for the failure markers (Run checks its own). Here the reply is read into a pooled
// buffer grown by doubling, trimmed in place, and copied once, into the string Run returns.
//
// Away from the default privilege level the driver must change level first: SendCommand then.
func (s *Session) send(command string) (string, error) {
	s.tr.resetBudget()
	if s.drv.CurrentPriv != s.drv.DefaultDesiredPriv {
		r, err := s.drv.SendCommand(command, opoptions.WithTimeoutOps(s.timeout), opoptions.WithNoStripPrompt())
		if err != nil {
			if s.tr.overflowed() {
				return "", ErrOutputTooLarge
			}
			return "", err
		}
		return finish([]byte(r.Result), s.drv.Channel.PromptPattern), nil
	}
	c := s.drv.Channel
	ctx, cancel := context.WithTimeout(context.Background(), c.GetTimeout(s.timeout))
	defer cancel()
	input := []byte(command)
	buf := replyBuffers.Get().(*[]byte)
	defer func() {
		if cap(*buf) <= maxPooled {
			replyBuffers.Put(buf)
		}
	}()
	out, err := func() (string, error) {
		if err := c.Write(input, false); err != nil {
			return "", err
		}
		if _, err := c.ReadUntilFuzzy(ctx, input); err != nil {
			return "", err
		}
		if err := c.WriteReturn(); err != nil {
			return "", err
		}
		b, err := s.readUntilPrompt(ctx, (*buf)[:0])
		*buf = b[:0]
		if err != nil {
			return "", err
		}
		return finish(trimLines(b, c.ReturnChar), c.PromptPattern), nil
	}()
	if err != nil && s.tr.overflowed() { // the transport ended the stream: readers saw it closed
		return "", ErrOutputTooLarge
	}
	if errors.Is(err, context.DeadlineExceeded) {
		// as SendInput words it, for Run's errors.Is
		return "", fmt.Errorf("%w: channel timeout sending input to device", util.ErrTimeoutError)
	}
	return out, err
}

// replyBuffers are send's read buffers: a reply is copied out of its buffer before the next
// command, so collections share them.
var replyBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

// maxPooled is the largest read buffer kept for reuse: NX-OS's longest replies are ~2 MB, and
// a buffer that held a flood up to the cap would otherwise stay pooled.
const maxPooled = 4 << 20

// readUntilPrompt is scrapligo's Channel.ReadUntilPrompt appending to rb: chunks until the
// prompt pattern matches the tail (the last PromptSearchDepth bytes from a line start). A
// reply longer than sshclient.MaxOutput is ErrOutputTooLarge, with rb never past the cap.
func (s *Session) readUntilPrompt(ctx context.Context, rb []byte) ([]byte, error) {
	c := s.drv.Channel
	for {
		select {
		case <-ctx.Done():
			return rb, ctx.Err()
		default:
		}
		nb, err := c.Read()
		if err != nil {
			return rb, err
		}
		if nb == nil {
			time.Sleep(c.ReadDelay)
			continue
		}
		if len(rb)+len(nb) > sshclient.MaxOutput {
			return rb, ErrOutputTooLarge
		}
		if cap(rb)-len(rb) < len(nb) {
			// doubling (a reply is copied ~once), but never past the cap
			rb = slices.Grow(rb, min(max(len(nb), len(rb)), sshclient.MaxOutput-len(rb)))
		}
		rb = append(rb, nb...)
		if c.PromptPattern.Match(searchTail(rb, c.PromptSearchDepth)) {
			return rb, nil
		}
	}
}

// searchTail is scrapligo's processReadBuf: the last depth bytes of rb, from their first
// line break on when there is one past the start.
func searchTail(rb []byte, depth int) []byte {
	if len(rb) <= depth {
		return rb
	}
	t := rb[len(rb)-depth:]
	if i := bytes.IndexByte(t, '\n'); i > 0 {
		t = t[i:]
	}
	return t
}

// trimLines is scrapligo's processOut without prompt stripping, in place: trailing spaces off
// every line, then return characters and line breaks off both ends.
func trimLines(b []byte, ret []byte) []byte {
	w, start := 0, 0
	for start <= len(b) {
		end := bytes.IndexByte(b[start:], '\n')
		if end < 0 {
			end = len(b)
		} else {
			end += start
		}
		line := bytes.TrimRight(b[start:end], " ")
		w += copy(b[w:], line)
		if end < len(b) {
			b[w] = '\n'
			w++
		}
		start = end + 1
	}
	b = bytes.Trim(b[:w], string(ret))
	return bytes.Trim(b, "\n")
}

// finish is the reply as Run returns it, newline-terminated, with the prompt that ends it
// (scrapligo reads up to and including it) and the blank lines before it dropped, as
// scrapligo's own stripping ends. scrapligo would strip with its multi-line pattern over the
// whole output (a quarter of a switch's CPU on a 500 KB NX-OS JSON reply); only the last line
// can be the prompt, and a line inside the output that merely looks like one is what the
// device printed, and stays. One copy of b.
func finish(b []byte, prompt *regexp.Regexp) string {
	i := bytes.LastIndexByte(b, '\n') + 1
	if prompt.Match(b[i:]) {
		b = b[:i]
	}
	b = bytes.Trim(b, "\n")
	if len(b) == 0 {
		return ""
	}
	var out strings.Builder
	out.Grow(len(b) + 1)
	out.Write(b)
	out.WriteByte('\n')
	return out.String()
}
