package sshclient

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A batch is one POSIX sh list: after each command, `echo TOKEN $?` ends its stdout (with its
// exit status) and `echo TOKEN >&2` its stderr. TOKEN is a fresh random 128-bit nonce per
// batch, so no honest output holds one by chance; the token is in the list's own command
// line, so output that prints process arguments would echo "TOKEN $?" literally, which the
// splitter finds malformed (no status) and answers by one session per command. `;` keeps the
// list on one line: a shell's own messages ("sh: 1: x: not found") read as they do for one
// command. The list runs in /bin/sh whatever the login shell is (sshd hands the line to it):
// csh and tcsh would read `>&2` as a redirection to a file named 2, a write on the device.
//
// The list is stopped on the host by its own watcher, not by signal requests: OpenSSH before
// 10.0 refuses them for root logins ("session signalling requires privilege separation"),
// and closing a channel without a terminal signals nothing, so a stalled command outlived
// its stop. sshd's child is a new session (setsid), so /bin/sh, exec'd in its place, leads
// the process group of every command of the list. The head moves the channel's stdin to fd 3
// and gives the list /dev/null instead (a command reading stdin sees its end at once, as it
// did when the client closed stdin at the start); a background watcher waits on fd 3 (an
// async list's own stdin is /dev/null) and, when the client closes stdin (a stop, or the
// connection gone), sends the group TERM, then KILL after stopGrace, ignoring the TERM itself.
// `kill -TERM -$$` names the group of $$ alone: where sh leads none, it fails and touches
// nothing. A list that ends kills the watcher (the tail) and exits with status 0.
var listHead = `exec 3<&0 </dev/null; { read x <&3; trap "" TERM; kill -TERM -$$; sleep ` +
	strconv.Itoa(graceSeconds(stopGrace)) + `; kill -KILL -$$; } >/dev/null 2>&1 & exec 3<&-; `

// graceSeconds is d in whole seconds, rounded up: POSIX sleep takes integers only, and a
// grace rounded down could be none.
func graceSeconds(d time.Duration) int { return int((d + time.Second - 1) / time.Second) }

// listTail kills the watcher. The list's own exit status is then kill's, and nothing reads
// it: each command's status is in its marker, and a list short of markers is told by them.
const listTail = `; kill $!`

// newToken is a batch's marker.
func newToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	return "roceaudit-" + hex.EncodeToString(b[:])
}

// batchList is the line that runs cmds with their markers in /bin/sh: `exec /bin/sh -c`
// and writeList's list as one single-quoted word (see writeQuoted), written once at its exact size. Built
// as markedList, then quoted, then prefixed, an 8-rail host's ~20 kB list was copied four
// times over (59 MB of a 1,000-device audit's 1.3 GB allocated).
func batchList(cmds []string, token string) string {
	const prefix = "exec /bin/sh -c '"
	size := len(prefix) + quotedLen(listHead) + quotedLen(listTail) + len("'")
	for i, c := range cmds {
		if i > 0 {
			size += len("; ")
		}
		size += quotedLen(c) + len("; echo  $?; echo  >&2") + 2*len(token)
	}
	var b strings.Builder
	b.Grow(size)
	b.WriteString(prefix)
	writeList(&b, cmds, token, true)
	b.WriteByte('\'')
	return b.String()
}

// quotedLen is the length of s quoted by writeQuoted: each quote becomes four bytes.
func quotedLen(s string) int { return len(s) + 3*strings.Count(s, "'") }

// writeQuoted writes s for the inside of a single-quoted word of any of sh, bash, csh or
// fish: a quote ends the word, \' is one, and a quote opens the word again.
func writeQuoted(b *strings.Builder, s string) {
	for {
		i := strings.IndexByte(s, '\'')
		if i < 0 {
			b.WriteString(s)
			return
		}
		b.WriteString(s[:i])
		b.WriteString(`'\''`)
		s = s[i+1:]
	}
}

// writeList writes the sh list of cmds, each followed by its markers, between listHead and
// listTail, quoted by writeQuoted when quoted is set (the tests run it unquoted in each
// shell). (A func parameter in place of the flag would move b to the heap.)
func writeList(b *strings.Builder, cmds []string, token string, quoted bool) {
	write := func(s string) {
		if quoted {
			writeQuoted(b, s)
		} else {
			b.WriteString(s)
		}
	}
	write(listHead)
	for i, c := range cmds {
		if i > 0 {
			b.WriteString("; ")
		}
		write(c)
		b.WriteString("; echo ")
		b.WriteString(token)
		b.WriteString(" $?; echo ")
		b.WriteString(token)
		b.WriteString(" >&2")
	}
	write(listTail)
}

// maxMarkerTail bounds what may follow TOKEN on its marker line (" 255" and the newline).
const maxMarkerTail = 8

// splitter cuts one stream (stdout or stderr) of a batch at its markers, as it arrives.
// withStatus is the stdout side, whose markers carry the exit status. Each part is capped at
// MaxOutput like a single command's output. done, when set, hears of each finished part.
type splitter struct {
	token      []byte
	withStatus bool
	done       chan<- struct{}

	mu        sync.Mutex
	pending   []byte // not yet judged: may hold the start of a marker
	cur       capped // its full, when set, hears of a part passing MaxOutput (see flooding)
	parts     []string
	status    []int
	malformed bool // a marker line that is not TOKEN [status]\n: nothing more is believed
}

func newSplitter(token string, withStatus bool, done chan<- struct{}) *splitter {
	return &splitter{token: []byte(token), withStatus: withStatus, done: done}
}

func (s *splitter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.malformed {
		return len(p), nil
	}
	// data is read in place: only a marker's start cut by a write is carried to the next
	// (copying the rest of the read after every marker was quadratic in a read's parts).
	data := p
	if len(s.pending) > 0 {
		s.pending = append(s.pending, p...)
		data = s.pending
	}
	// Each turn either ends one part or stops; parts never exceed the bytes written.
	for range len(data) + 1 {
		i := bytes.Index(data, s.token)
		if i < 0 {
			// Keep what could be the start of a marker split across writes, and only that:
			// kept bytes make the next write a copy (always keeping a token's length copied
			// every write, 85 MB of a 1,000-device 8-rail audit).
			keep := markerStart(data, s.token)
			_, _ = s.cur.Write(data[:len(data)-keep])
			data = data[len(data)-keep:]
			break
		}
		_, _ = s.cur.Write(data[:i])
		rest := data[i+len(s.token):]
		nl := bytes.IndexByte(rest, '\n')
		if nl < 0 {
			if len(rest) > maxMarkerTail {
				s.malformed = true
				return len(p), nil
			}
			data = data[i:]
			break
		}
		status, ok := s.markerTail(string(rest[:nl]))
		if !ok {
			s.malformed = true
			return len(p), nil
		}
		s.parts = append(s.parts, s.cur.String())
		s.status = append(s.status, status)
		s.cur = capped{full: s.cur.full}
		data = rest[nl+1:]
		if s.done != nil {
			select {
			case s.done <- struct{}{}:
			default: // a tick is already waiting: the reader counts parts, not ticks
			}
		}
	}
	s.pending = append(s.pending[:0], data...) // may overlap s.pending: append moves safely
	return len(p), nil
}

// flooding is whether the part being read has passed MaxOutput: its command floods.
func (s *splitter) flooding() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cur.truncated
}

// markerStart is the length of the longest end of data that begins token (shorter than it).
func markerStart(data, token []byte) int {
	tail := data[len(data)-min(len(data), len(token)-1):]
	for i := 0; i < len(tail); i++ {
		k := bytes.IndexByte(tail[i:], token[0])
		if k < 0 {
			break
		}
		i += k
		if bytes.HasPrefix(token, tail[i:]) {
			return len(tail) - i
		}
	}
	return 0
}

// markerTail reads what follows TOKEN: " N" on stdout, nothing on stderr.
func (s *splitter) markerTail(t string) (int, bool) {
	if !s.withStatus {
		return 0, t == ""
	}
	v, ok := strings.CutPrefix(t, " ")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > 255 {
		return 0, false
	}
	return n, true
}

// result is the parts the stream ended and their statuses; a malformed marker ends the
// parts where it stands.
func (s *splitter) result() (parts []string, status []int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.parts, s.status
}

// finished counts the parts ended so far.
func (s *splitter) finished() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.parts)
}

// ReadFrom makes io.Copy read into a pooled buffer rather than a new 32 KiB one per stream
// per session (see copyBuffers): 11% of a 1k audit's allocated bytes before.
func (s *splitter) ReadFrom(r io.Reader) (int64, error) { return copyPooled(s, r) }
