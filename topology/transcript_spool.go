package topology

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
)

// TranscriptSink takes a device's transcript once the device is collected, so a large
// collection does not hold every command's output in memory until the end.
type TranscriptSink interface {
	Add(device string, transcript []Exchange) error
}

// DiscardTranscripts is the sink of runs that write no snapshot: checks never read
// transcripts.
var DiscardTranscripts TranscriptSink = discard{}

type discard struct{}

func (discard) Add(string, []Exchange) error { return nil }

// TranscriptSpool keeps transcripts in a temporary file, encoded as the snapshot's
// "transcripts" entries (one a line), until WriteSnapshot copies them into the snapshot. Safe for
// concurrent Add.
type TranscriptSpool struct {
	mu  sync.Mutex
	f   *os.File
	w   *bufio.Writer
	n   int
	err error
}

// NewTranscriptSpool creates the spool's file in dir ("" for the system's temporary folder).
func NewTranscriptSpool(dir string) (*TranscriptSpool, error) {
	f, err := os.CreateTemp(dir, "roceaudit-transcripts-*")
	if err != nil {
		return nil, fmt.Errorf("transcript spool: %w", err)
	}
	return &TranscriptSpool{f: f, w: bufio.NewWriterSize(f, 256<<10)}, nil
}

// Add appends one device's transcript.
func (s *TranscriptSpool) Add(device string, transcript []Exchange) error {
	if len(transcript) == 0 {
		return nil
	}
	data, err := json.Marshal(transcriptEntry{Device: device, Transcript: transcript})
	if err != nil {
		return fmt.Errorf("transcript of %s: %w", device, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.err
	}
	if s.n > 0 {
		s.w.WriteByte(',')
	}
	if _, err := s.w.Write(append(data, '\n')); err != nil { // one entry a line
		s.err = fmt.Errorf("transcript spool: %w", err)
		return s.err
	}
	s.n++
	return nil
}

// copyTo writes the spooled entries to w, after a comma when more precede them.
func (s *TranscriptSpool) copyTo(w io.Writer, more bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.err
	}
	if s.n == 0 {
		return nil
	}
	if err := s.w.Flush(); err != nil {
		return fmt.Errorf("transcript spool: %w", err)
	}
	if more {
		if _, err := w.Write([]byte{','}); err != nil {
			return err
		}
	}
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("transcript spool: %w", err)
	}
	if _, err := io.Copy(w, s.f); err != nil {
		return fmt.Errorf("transcript spool: %w", err)
	}
	_, err := s.f.Seek(0, io.SeekEnd)
	return err
}

// Close removes the spool's file.
func (s *TranscriptSpool) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return removeSpoolFile(s.f)
}

// removeSpoolFile closes a spool's temporary file and removes it, the first error winning.
func removeSpoolFile(f *os.File) error {
	name := f.Name()
	err := f.Close()
	if rerr := os.Remove(name); err == nil {
		err = rerr
	}
	return err
}
