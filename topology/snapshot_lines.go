package topology

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
)

const (
	devicesOpen     = `,"devices":[`
	transcriptsOpen = `],"transcripts":[`
)

// lineHeader reads the first line of a line-oriented snapshot: its header, up to the
// devices list. ok is false for any other first line.
func lineHeader(line []byte) (*Snapshot, bool) {
	line = bytes.TrimRight(line, "\r\n")
	head, found := bytes.CutSuffix(line, []byte(devicesOpen))
	if !found || len(head) < 2 || head[0] != '{' {
		return nil, false
	}
	var s Snapshot
	if err := json.Unmarshal(append(head, '}'), &s); err != nil {
		return nil, false
	}
	return &s, true
}

// readLines reads the devices (decoded on every core, kept in file order) and, when asked,
// the transcripts of a line-oriented snapshot after its header.
func readLines(br *bufio.Reader, s *Snapshot, opts ReadOptions) (*Snapshot, error) {
	workers := make([]*planDecoder, runtime.GOMAXPROCS(0))
	for i := range workers {
		workers[i] = newPlanDecoder(opts)
	}
	devs, next, err := decodeLines(br, "device", func(w int, line []byte) (*Device, error) {
		line, err := legacyFacts(line)
		if err != nil {
			return nil, err
		}
		d := new(Device)
		if err := workers[w].decodeDevice(line, d); err == nil {
			return d, nil
		} else if !errors.Is(err, errFallback) {
			return nil, err
		}
		d = new(Device) // what the planned decoder cannot read exactly, encoding/json does
		if err := json.Unmarshal(line, d); err != nil {
			return nil, err
		}
		opts.trim(d)
		return d, nil
	})
	if err != nil {
		return nil, err
	}
	s.Devices = devs
	switch {
	case next == "]}":
		return s, nil
	case next != transcriptsOpen:
		return nil, fmt.Errorf("after the devices: %.40q, expected the transcripts", next)
	case !opts.Transcripts:
		return s, nil // checks need none of it
	}
	entries, next, err := decodeLines(br, "transcript", func(_ int, line []byte) (*transcriptEntry, error) {
		e := new(transcriptEntry)
		return e, json.Unmarshal(line, e)
	})
	if err != nil {
		return nil, err
	}
	if next != "]}" {
		return nil, fmt.Errorf("after the transcripts: %.40q, expected the end", next)
	}
	byName := make(map[string]*Device, len(s.Devices))
	for _, d := range s.Devices {
		byName[d.Name] = d
	}
	for _, e := range entries {
		d, ok := byName[e.Device]
		if !ok {
			return nil, fmt.Errorf("transcripts: transcript of %q, which is not among the devices", e.Device)
		}
		d.Transcript = append(d.Transcript, e.Transcript...)
	}
	return s, nil
}

// decodeLines decodes list elements, one a line ("{...}" or ",{...}"), on every core, until
// a line that closes the list, which it returns. what names an element in errors.
// decode is told which worker (0..GOMAXPROCS-1) calls it.
func decodeLines[T any](br *bufio.Reader, what string, decode func(worker int, line []byte) (T, error)) ([]T, string, error) {
	type job struct {
		i         int
		line, buf []byte // line is within buf
	}
	var (
		out     []T
		mu      sync.Mutex
		firstEr error
		wg      sync.WaitGroup
	)
	jobs := make(chan job, 64)
	// Lines are read into buffers that come back once decoded (decode keeps nothing of a
	// line): at 10,000 devices a fresh copy of each (ReadBytes) was half a GB of garbage.
	free := make(chan []byte, cap(jobs)+runtime.GOMAXPROCS(0))
	for w := range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				v, err := decode(w, j.line)
				select {
				case free <- j.buf[:0]:
				default:
				}
				mu.Lock()
				if err != nil && firstEr == nil {
					firstEr = fmt.Errorf("%s %d: %w", what, j.i+1, err)
				}
				out[j.i] = v
				mu.Unlock()
			}
		}()
	}
	finish := func() error {
		close(jobs)
		wg.Wait()
		return firstEr
	}
	readLine := func() ([]byte, error) {
		var buf []byte
		select {
		case buf = <-free:
		default:
		}
		for {
			frag, err := br.ReadSlice('\n')
			buf = append(buf, frag...)
			if !errors.Is(err, bufio.ErrBufferFull) {
				return buf, err
			}
		}
	}
	for i := 0; ; i++ {
		buf, err := readLine()
		line := buf
		if len(line) == 0 && errors.Is(err, io.EOF) {
			_ = finish()
			return nil, "", io.ErrUnexpectedEOF
		}
		if err != nil && !errors.Is(err, io.EOF) {
			_ = finish()
			return nil, "", err
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) > 0 && line[0] == ']' {
			if err := finish(); err != nil {
				return nil, "", err
			}
			return out, string(line), nil
		}
		if i > 0 {
			var ok bool
			if line, ok = bytes.CutPrefix(line, []byte(",")); !ok {
				_ = finish()
				return nil, "", fmt.Errorf("%s %d: expected a comma before it", what, i+1)
			}
		}
		mu.Lock()
		var zero T
		out = append(out, zero)
		mu.Unlock()
		jobs <- job{i: i, line: line, buf: buf}
	}
}
