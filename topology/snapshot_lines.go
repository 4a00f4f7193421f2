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
	"sync/atomic"
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
	devs, next, br, err := decodeLines(br, "device", func(w int, line []byte) (*Device, error) {
		// The planned decoder falls back at any "known" key it reads, so only such lines
		// are searched for the facts of older snapshots (a search of every line was ~3%).
		d := new(Device)
		if err := workers[w].decodeDevice(line, d); err == nil {
			return d, nil
		} else if !errors.Is(err, errFallback) {
			return nil, err
		}
		line, err := legacyFacts(line)
		if err != nil {
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
	entries, next, _, err := decodeLines(br, "transcript", func(_ int, line []byte) (*transcriptEntry, error) {
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
// a line that closes the list, which it returns with a reader of what follows that line.
// what names an element in errors. decode is told which worker (0..GOMAXPROCS-1) calls it,
// and keeps nothing of the line.
func decodeLines[T any](br *bufio.Reader, what string, decode func(worker int, line []byte) (T, error)) ([]T, string, *bufio.Reader, error) {
	type job struct {
		i    int
		line []byte // within blk
		blk  *lineBlock
	}
	var (
		out     []T
		mu      sync.Mutex
		firstEr error
		wg      sync.WaitGroup
	)
	jobs := make(chan job, 64)
	blocks := newLineBlocks(br, cap(jobs)/8+runtime.GOMAXPROCS(0))
	for w := range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				v, err := decode(w, j.line)
				blocks.release(j.blk)
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
	for i := 0; ; i++ {
		line, blk, err := blocks.next()
		if len(line) == 0 && errors.Is(err, io.EOF) {
			_ = finish()
			return nil, "", nil, io.ErrUnexpectedEOF
		}
		if err != nil && !errors.Is(err, io.EOF) {
			_ = finish()
			return nil, "", nil, err
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) > 0 && line[0] == ']' {
			closing := string(line)
			blocks.release(blk)
			if err := finish(); err != nil {
				return nil, "", nil, err
			}
			return out, closing, blocks.rest(), nil
		}
		if i > 0 {
			var ok bool
			if line, ok = bytes.CutPrefix(line, []byte(",")); !ok {
				_ = finish()
				return nil, "", nil, fmt.Errorf("%s %d: expected a comma before it", what, i+1)
			}
		}
		mu.Lock()
		var zero T
		out = append(out, zero)
		mu.Unlock()
		jobs <- job{i: i, line: line, blk: blk}
	}
}

// lineBlocks cuts lines out of large blocks read straight from the stream, each line a
// slice of its block (not a copy: at 10,000 devices copying each line out of the bufio
// buffer, and growing the copies, was ~0.4 s of the one reader goroutine, which gunzip
// already keeps busy). A block goes back to the free list once every line cut from it is
// released; a line longer than a block gets a block of its own size. At most limit blocks
// exist: past that the reader waits for one to be freed. A free list that dropped what it
// had no room for made 57 blocks (228 MB) for the 10,000-device snapshot, whose ~1 MB switch
// lines fill a few blocks in the decoders' queue: fresh memory, faulted in page by page.
type lineBlocks struct {
	r    *bufio.Reader
	cur  *lineBlock
	pos  int // where cur's next line starts
	eof  error
	free chan *lineBlock
	made int // blocks that exist (free, cur, or holding lines not yet released)
	size int // of a block, at least
}

type lineBlock struct {
	data []byte // read bytes: data[:len(data)] of cap(data)
	refs atomic.Int32
}

const lineBlockSize = 4 << 20

// newLineBlocks reads r into at most limit blocks (at least 2: the reader's, and one the
// decoders release).
func newLineBlocks(r *bufio.Reader, limit int) *lineBlocks {
	return &lineBlocks{r: r, free: make(chan *lineBlock, max(limit, 2)), size: lineBlockSize}
}

// next is the next line (with its newline, if any) and the block it is in, to be released
// once read. err is the stream's error (io.EOF for the last line, without a newline).
func (lb *lineBlocks) next() ([]byte, *lineBlock, error) {
	for range maxLineReads {
		if lb.cur != nil {
			if k := bytes.IndexByte(lb.cur.data[lb.pos:], '\n'); k >= 0 {
				line := lb.cur.data[lb.pos : lb.pos+k+1]
				lb.pos += k + 1
				lb.cur.refs.Add(1)
				return line, lb.cur, nil
			}
		}
		if lb.eof != nil {
			var line []byte
			if lb.cur != nil {
				line = lb.cur.data[lb.pos:]
				lb.pos = len(lb.cur.data)
				lb.cur.refs.Add(1)
			}
			return line, lb.cur, lb.eof
		}
		lb.fill()
	}
	return nil, nil, errors.New("a line longer than the reader allows")
}

// maxLineReads bounds the reads for one line: each at least doubles a block that must grow,
// or reads half a block at least (2^40 bytes is beyond any snapshot line).
const maxLineReads = 1 << 20

// fill moves the unfinished line of cur to a fresh block (bigger if it fills one) and reads
// more after it.
func (lb *lineBlocks) fill() {
	var tail []byte
	if lb.cur != nil {
		tail = lb.cur.data[lb.pos:]
	}
	size := lb.size
	for size < 2*len(tail) {
		size *= 2
	}
	var nb *lineBlock
	select {
	case nb = <-lb.free:
	default:
		if lb.made < cap(lb.free) {
			lb.made++
		} else {
			nb = <-lb.free // every other block holds lines the decoders will release
		}
	}
	if nb == nil || cap(nb.data) < size { // none yet, or one too small for this line's tail
		nb = &lineBlock{data: make([]byte, 0, size)}
	}
	nb.data = append(nb.data[:0], tail...)
	nb.refs.Store(1) // the reader's, while it is cur
	if lb.cur != nil {
		lb.release(lb.cur)
	}
	lb.cur, lb.pos = nb, 0
	n, err := io.ReadAtLeast(lb.r, nb.data[len(nb.data):cap(nb.data)], (cap(nb.data)-len(nb.data))/2)
	nb.data = nb.data[:len(nb.data)+n]
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			err = io.EOF
		}
		lb.eof = err
	}
}

func (lb *lineBlocks) release(b *lineBlock) {
	if b == nil || b.refs.Add(-1) != 0 {
		return
	}
	lb.free <- b // never blocks: it has room for every block made
}

// rest reads what follows the last line returned.
func (lb *lineBlocks) rest() *bufio.Reader {
	var left []byte
	if lb.cur != nil {
		left = bytes.Clone(lb.cur.data[lb.pos:])
	}
	var r io.Reader = lb.r
	if lb.eof != nil {
		r = eofReader{lb.eof}
	}
	return bufio.NewReaderSize(io.MultiReader(bytes.NewReader(left), r), 256<<10)
}

type eofReader struct{ err error }

func (e eofReader) Read([]byte) (int, error) { return 0, e.err }
