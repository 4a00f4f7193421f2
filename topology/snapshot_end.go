package topology

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	kgzip "github.com/klauspost/compress/gzip"
)

// snapshotEnd closes a snapshot file: the transcripts list, then the object.
const snapshotEnd = "]}\n"

// ErrCutOff is a snapshot file that ends before its end: a partial copy or an interrupted
// transfer. A reader that only checks stops where the transcripts begin, so it reads such a
// file without noticing.
var ErrCutOff = errors.New("the file ends early")

// endTail is how many of a file's last bytes hold a compressed snapshot's end member (~25
// bytes), with room to spare.
const endTail = 64

// VerifyEnd says whether the snapshot file at path is whole to its end, without reading the
// transcripts a check skips: a plain file ends with the closing brackets on their own line, a
// compressed one with a gzip member holding only them (written so since). Any other file (an
// earlier roceaudit's, one recompressed by gzip or reformatted by jq) is read to the end of
// its JSON object instead. What is not a regular file (a pipe) cannot be read again and is
// not verified.
func VerifyEnd(path string) error {
	st, err := os.Stat(path) // before opening: opening a FIFO again would wait for a writer
	if err != nil || !st.Mode().IsRegular() {
		return err
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	tail := make([]byte, min(st.Size(), endTail))
	if _, err := f.ReadAt(tail, st.Size()-int64(len(tail))); err != nil {
		return fmt.Errorf("reading the end of %s: %w", path, err)
	}
	var magic [2]byte
	gzipped := false
	if _, err := f.ReadAt(magic[:], 0); err == nil && magic == [2]byte{0x1f, 0x8b} {
		gzipped = true
		if endsWithEndMember(tail) {
			return nil
		}
	} else if bytes.HasSuffix(bytes.TrimRight(tail, " \t\r\n"), []byte("\n]}")) {
		return nil // a transcript's line ends "]}" too, but not after a line break
	}
	var r io.Reader = bufio.NewReaderSize(f, 256<<10)
	if !gzipped {
		return objectEnds(r)
	}
	zr, err := kgzip.NewReader(r)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrCutOff, err)
	}
	if err := objectEnds(zr); err != nil {
		return err
	}
	// The object is whole; its member must be too (a cut in the last one's checksum leaves
	// the brackets readable). Bytes after the last member are not a member (zero padding):
	// gzip(1) too reads the file and warns.
	if _, err := io.Copy(io.Discard, zr); err != nil && !errors.Is(err, kgzip.ErrHeader) {
		return fmt.Errorf("%w: %w", ErrCutOff, err)
	}
	return nil
}

// objectEnds reads r until the JSON object it starts with closes, or fails with ErrCutOff: it
// counts brackets outside strings, which is all a truncation breaks, at the speed of a byte
// loop. What follows the object (padding after a gzip member) is not read.
func objectEnds(r io.Reader) error {
	depth, inString, escaped, started := 0, false, false, false
	buf := make([]byte, 64<<10)
	for {
		n, err := r.Read(buf)
		for _, c := range buf[:n] {
			switch {
			case inString && escaped:
				escaped = false
			case inString && c == '\\':
				escaped = true
			case inString:
				inString = c != '"'
			case c == '"':
				inString = true
			case c == '{' || c == '[':
				depth++
				started = true
			case c == '}' || c == ']':
				depth--
				if started && depth == 0 {
					return nil
				}
			}
		}
		if err == io.EOF {
			return ErrCutOff
		}
		if err != nil {
			return fmt.Errorf("%w: %w", ErrCutOff, err)
		}
	}
}

// endsWithEndMember is whether tail ends with a whole gzip member that holds snapshotEnd.
// Its start is searched for rather than its bytes compared, which depend on the compressor.
func endsWithEndMember(tail []byte) bool {
	for i := len(tail) - 18; i >= 0; i-- { // 18: a gzip member's header and trailer
		if tail[i] == 0x1f && tail[i+1] == 0x8b && tail[i+2] == 8 {
			if got, whole := oneMember(tail[i:]); whole && string(got) == snapshotEnd {
				return true
			}
		}
	}
	return false
}

// oneMember decompresses the gzip member at the start of b; whole is whether it is valid
// (checksum and length) and takes all of b.
func oneMember(b []byte) (content []byte, whole bool) {
	r := bytes.NewReader(b) // an io.ByteReader: the decompressor reads no further than the member
	zr, err := kgzip.NewReader(r)
	if err != nil {
		return nil, false
	}
	zr.Multistream(false)
	content, err = io.ReadAll(zr)
	return content, err == nil && r.Len() == 0
}
