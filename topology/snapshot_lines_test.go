package topology

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
)

// lineBlocks returns every line whole and in order, whether it fits a block, spans two or
// is longer than a block, and what follows the lines it was asked for.
func TestLineBlocks(t *testing.T) {
	var want []string
	for i := range 200 {
		want = append(want, strings.Repeat(string(rune('a'+i%26)), (i*37)%300)+"\n")
	}
	want = append(want, "last, no newline")
	in := strings.Join(want, "")
	for _, size := range []int{16, 64, 1000, 1 << 20} {
		lb := newLineBlocks(bufio.NewReaderSize(strings.NewReader(in), 16), 2)
		lb.size = size
		for i, w := range want[:100] {
			line, blk, err := lb.next()
			if err != nil || string(line) != w {
				t.Fatalf("size %d, line %d: %q, %v; want %q", size, i, line, err, w)
			}
			lb.release(blk)
		}
		rest, err := io.ReadAll(lb.rest())
		if err != nil || string(rest) != strings.Join(want[100:], "") {
			t.Fatalf("size %d: rest %d bytes, %v", size, len(rest), err)
		}
	}
	lb := newLineBlocks(bufio.NewReader(strings.NewReader(in)), 2)
	lb.size = 64
	for i, w := range want {
		line, blk, err := lb.next()
		last := i == len(want)-1
		if string(line) != w || (err != nil) != last || (last && !errors.Is(err, io.EOF)) {
			t.Fatalf("line %d: %q, %v; want %q", i, line, err, w)
		}
		lb.release(blk)
	}
	if line, _, err := lb.next(); len(line) != 0 || !errors.Is(err, io.EOF) {
		t.Fatalf("after the end: %q, %v", line, err)
	}
}

// A block's bytes are not reused while a line cut from it is held (here with room for every
// block the held lines need: the reader would wait for one released otherwise).
func TestLineBlocksHeldLines(t *testing.T) {
	var in bytes.Buffer
	for i := range 500 {
		in.WriteString(strings.Repeat(string(rune('a'+i%26)), 10+i%50) + "\n")
	}
	lb := newLineBlocks(bufio.NewReader(&in), 1000)
	lb.size = 128
	type held struct {
		line []byte
		text string
		blk  *lineBlock
	}
	var hs []held
	for i := range 500 {
		line, blk, err := lb.next()
		if err != nil {
			t.Fatal(err)
		}
		if i%7 == 0 {
			hs = append(hs, held{line, string(line), blk})
		} else {
			lb.release(blk)
		}
	}
	for _, h := range hs {
		if string(h.line) != h.text {
			t.Fatalf("held line changed: %q, was %q", h.line, h.text)
		}
	}
}

// However far the reader runs ahead of decoders that release lines out of order, it makes
// at most its limit of blocks, and reuses them: every line still comes whole.
func TestLineBlocksBounded(t *testing.T) {
	var in bytes.Buffer
	var want []string
	for i := range 3000 {
		line := strings.Repeat(string(rune('a'+i%26)), 10+(i*31)%200) + "\n"
		want = append(want, line)
		in.WriteString(line)
	}
	lb := newLineBlocks(bufio.NewReader(&in), 3)
	lb.size = 256
	type job struct {
		i    int
		line []byte
		blk  *lineBlock
	}
	jobs := make(chan job, 64)
	bad := make(chan string, 1)
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			for j := range jobs {
				if string(j.line) != want[j.i] {
					select {
					case bad <- fmt.Sprintf("line %d: %q, want %q", j.i, j.line, want[j.i]):
					default:
					}
				}
				lb.release(j.blk)
			}
		})
	}
	for i := range want {
		line, blk, err := lb.next()
		if err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		jobs <- job{i, line, blk}
	}
	close(jobs)
	wg.Wait()
	select {
	case msg := <-bad:
		t.Fatal(msg)
	default:
	}
	if lb.made > 3 {
		t.Errorf("%d blocks made, limit 3", lb.made)
	}
}
