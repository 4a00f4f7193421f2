package topology

import (
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
// transcripts a check skips: a plain file ends with the closing brackets, a compressed one
// with a gzip member holding only them (written so since). A compressed file without that
// member (an earlier roceaudit, or recompressed by gzip) is decompressed to its end instead.
// What is not a regular file (a pipe) cannot be read again and is not verified.
func VerifyEnd(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return err
	}
	tail := make([]byte, min(st.Size(), endTail))
	if _, err := f.ReadAt(tail, st.Size()-int64(len(tail))); err != nil {
		return fmt.Errorf("reading the end of %s: %w", path, err)
	}
	var magic [2]byte
	if _, err := f.ReadAt(magic[:], 0); err != nil || magic != [2]byte{0x1f, 0x8b} {
		if bytes.HasSuffix(bytes.TrimRight(tail, " \t\r\n"), []byte("]}")) {
			return nil
		}
		return ErrCutOff
	}
	if endsWithEndMember(tail) {
		return nil
	}
	zr, err := kgzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrCutOff, err)
	}
	last := &lastBytes{}
	if _, err := io.Copy(last, zr); err != nil { // a truncated stream fails here (unexpected EOF)
		return fmt.Errorf("%w: %w", ErrCutOff, err)
	}
	if !bytes.HasSuffix(bytes.TrimRight(last.b, " \t\r\n"), []byte("]}")) {
		return ErrCutOff
	}
	return nil
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

// lastBytes keeps the last few bytes written to it.
type lastBytes struct{ b []byte }

func (l *lastBytes) Write(p []byte) (int, error) {
	const keep = 16
	l.b = append(l.b, p[max(0, len(p)-keep):]...)
	if len(l.b) > keep {
		l.b = append(l.b[:0], l.b[len(l.b)-keep:]...)
	}
	return len(p), nil
}
