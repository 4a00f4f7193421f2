package topology

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	kgzip "github.com/klauspost/compress/gzip"
)

// A snapshot file is one JSON object, compact, written as a stream: the header, the devices
// (facts only), then every device's transcript in a trailing "transcripts" list. Profiles of
// a 1,000-device collection showed indented encoding of one fabric-sized value and decoding
// megabytes of transcript that checks never read as the cost; so the writer encodes one
// device at a time, and a reader that only checks stops where the transcripts begin.
//
// The layout is line-oriented, which JSON allows (whitespace between tokens) and which lets
// a reader split devices without parsing and decode them on every core:
//
//	{"schema":...header...,"devices":[
//	{device}
//	,{device}
//	],"transcripts":[
//	{"device":...,"transcript":[...]}
//	,{...}
//	]}
//
// Any other JSON of the same shape (older, indented snapshots) is read by a streaming
// decoder instead, devices carrying their own "transcript" included.

// transcriptEntry is one device's transcript in the trailing list.
type transcriptEntry struct {
	Device     string     `json:"device"`
	Transcript []Exchange `json:"transcript"`
}

// Gzipped says whether a snapshot file name asks for gzip compression.
func Gzipped(path string) bool { return strings.HasSuffix(path, ".gz") }

// WriteSnapshot encodes s to w; transcripts the spool holds (may be nil) are written after
// those the devices carry.
func WriteSnapshot(w io.Writer, s *Snapshot, spool *TranscriptSpool) error {
	return writeSnapshot(w, s, nil, spool)
}

// writeSnapshot is WriteSnapshot taking the facts of the devices facts holds (may be nil)
// from it rather than from s.
func writeSnapshot(w io.Writer, s *Snapshot, facts *FactSpool, spool *TranscriptSpool) error {
	head := *s
	head.Devices = nil
	hdr, err := json.Marshal(&head)
	if err != nil {
		return fmt.Errorf("encoding snapshot header: %w", err)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	// The header without its closing brace; "devices" is null there (omitted below).
	hdr = bytes.TrimSuffix(hdr, []byte("}"))
	hdr = bytes.Replace(hdr, []byte(`,"devices":null`), nil, 1)
	bw.Write(hdr)
	bw.WriteString(`,"devices":[` + "\n")
	enc := json.NewEncoder(bw)
	for i, d := range s.Devices {
		if i > 0 {
			bw.WriteByte(',')
		}
		if ok, err := facts.copyTo(bw, i); ok || err != nil {
			if err != nil {
				return err
			}
			continue
		}
		facts := *d
		facts.Transcript = nil
		if err := enc.Encode(&facts); err != nil {
			return fmt.Errorf("encoding device %s: %w", d.Name, err)
		}
	}
	bw.WriteString(`],"transcripts":[` + "\n")
	if m, ok := w.(*gzipMembers); ok {
		if err := bw.Flush(); err != nil {
			return err
		}
		if err := m.next(transcriptsLevel); err != nil {
			return err
		}
	}
	n := 0
	for _, d := range s.Devices {
		if len(d.Transcript) == 0 {
			continue
		}
		if n > 0 {
			bw.WriteByte(',')
		}
		n++
		if err := enc.Encode(transcriptEntry{Device: d.Name, Transcript: d.Transcript}); err != nil {
			return fmt.Errorf("encoding the transcript of %s: %w", d.Name, err)
		}
	}
	if spool != nil {
		if err := spool.copyTo(bw, n > 0); err != nil {
			return err
		}
	}
	if m, ok := w.(*gzipMembers); ok {
		// The end in a member of its own, which VerifyEnd finds in the file's last bytes.
		if err := bw.Flush(); err != nil {
			return err
		}
		if err := m.next(transcriptsLevel); err != nil {
			return err
		}
	}
	bw.WriteString(snapshotEnd)
	return bw.Flush()
}

// WriteSnapshotFile is WriteSnapshot for a snapshot file, gzip-compressed when gzipped (see
// Gzipped).
func WriteSnapshotFile(w io.Writer, gzipped bool, s *Snapshot, spool *TranscriptSpool) error {
	return writeSnapshotFile(w, gzipped, s, nil, spool)
}

func writeSnapshotFile(w io.Writer, gzipped bool, s *Snapshot, facts *FactSpool, spool *TranscriptSpool) error {
	if !gzipped {
		return writeSnapshot(w, s, facts, spool)
	}
	zw, err := gzip.NewWriterLevel(w, devicesLevel)
	if err != nil {
		return err
	}
	m := &gzipMembers{w: w, zw: zw}
	if err := writeSnapshot(m, s, facts, spool); err != nil {
		return err
	}
	return m.zw.Close()
}

// A gzipped snapshot is three gzip members (one file to gzip, zcat and any reader): the
// header and devices, which every check decompresses, at a level that decompresses faster;
// the transcripts, the larger part that checks never read, at the fastest level to write;
// and the closing brackets alone, so that VerifyEnd can tell from the last bytes that the
// file is whole. At 10,000 devices: the devices' 571 MB decompress in 212 instead of 330 ms for
// about the same compression time; the transcripts at level 5 would take twice as long
// to write (2.9 -> 5.4 s for the whole file).
const (
	devicesLevel     = 5
	transcriptsLevel = gzip.BestSpeed
)

// gzipMembers writes one gzip member, then (next) another after it.
type gzipMembers struct {
	w  io.Writer
	zw *gzip.Writer
}

func (m *gzipMembers) Write(p []byte) (int, error) { return m.zw.Write(p) }

func (m *gzipMembers) next(level int) error {
	if err := m.zw.Close(); err != nil {
		return err
	}
	zw, err := gzip.NewWriterLevel(m.w, level)
	if err != nil {
		return err
	}
	m.zw = zw
	return nil
}

// ReadOptions choose what a reader keeps.
type ReadOptions struct {
	// Transcripts keeps every device's transcript; without it reading stops where they begin.
	Transcripts bool
	// CheckedCounters keeps on host ports only the counters checks read (IsSnapshotCounter),
	// as a collection does since; an older snapshot's ~250 a port are dropped as each device
	// is decoded, so they are never all held at once. Switch ports keep none: no check
	// reads them (~100 MB at 10,000 devices).
	CheckedCounters bool
}

// trim drops from a decoded device what opts do not keep.
func (opts ReadOptions) trim(d *Device) {
	if !opts.Transcripts {
		d.Transcript = nil
	}
	if opts.CheckedCounters {
		PruneHostCounters(d)
		if d.Switch != nil {
			for _, p := range d.Switch.Ports {
				if p != nil {
					p.Counters = Fact[map[string]int64]{} // no check reads a switch port's
				}
			}
		}
	}
}

// ReadSnapshot decodes a snapshot from r, gzip-compressed or not.
func ReadSnapshot(r io.Reader, opts ReadOptions) (*Snapshot, error) {
	zr, err := Gunzipped(r)
	if err != nil {
		return nil, err
	}
	br := zr.(*bufio.Reader)
	first, err := br.ReadBytes('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if s, ok := lineHeader(first); ok {
		return readLines(br, s, opts)
	}
	return readStream(io.MultiReader(bytes.NewReader(first), br), opts)
}

// readStream decodes any snapshot-shaped JSON token by token.
func readStream(r io.Reader, opts ReadOptions) (*Snapshot, error) {
	dec := json.NewDecoder(r)
	if err := expectDelim(dec, '{'); err != nil {
		return nil, err
	}
	var s Snapshot
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		switch key {
		case "devices":
			if err := decodeList(dec, func() error {
				var raw json.RawMessage
				if err := dec.Decode(&raw); err != nil {
					return err
				}
				b, err := legacyFacts(raw)
				if err != nil {
					return err
				}
				d := new(Device)
				if err := json.Unmarshal(b, d); err != nil {
					return err
				}
				opts.trim(d)
				s.Devices = append(s.Devices, d)
				return nil
			}); err != nil {
				return nil, fmt.Errorf("devices: %w", err)
			}
		case "transcripts":
			if !opts.Transcripts {
				return &s, nil // checks need none of it
			}
			if err := readTranscripts(dec, &s); err != nil {
				return nil, err
			}
		default:
			if err := decodeHeaderField(dec, key, &s); err != nil {
				return nil, err
			}
		}
	}
	if err := expectDelim(dec, '}'); err != nil {
		return nil, err
	}
	return &s, nil
}

// Gunzipped reads r, decompressed when it is gzip-compressed (by its magic bytes, whatever
// the file is called). The reader is a *bufio.Reader.
func Gunzipped(r io.Reader) (io.Reader, error) {
	br := bufio.NewReaderSize(r, 256<<10)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		// klauspost's inflate is a drop-in for compress/gzip's reader at about twice its
		// speed; gunzip was the reading goroutine's largest cost in check's profile.
		zr, err := kgzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		return bufio.NewReaderSize(zr, 256<<10), nil
	}
	return br, nil
}

// decodeHeaderField decodes one top-level field other than the two lists into s, through
// the Snapshot's own JSON names (unknown fields are skipped, as json.Unmarshal would).
func decodeHeaderField(dec *json.Decoder, key string, s *Snapshot) error {
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return fmt.Errorf("%s: %w", key, err)
	}
	keyJSON, _ := json.Marshal(key)
	obj := make([]byte, 0, len(keyJSON)+len(raw)+3)
	obj = append(append(append(append(obj, '{'), keyJSON...), ':'), raw...)
	obj = append(obj, '}')
	devices := s.Devices
	if err := json.Unmarshal(obj, s); err != nil {
		return fmt.Errorf("%s: %w", key, err)
	}
	s.Devices = devices
	return nil
}

func readTranscripts(dec *json.Decoder, s *Snapshot) error {
	byName := make(map[string]*Device, len(s.Devices))
	for _, d := range s.Devices {
		byName[d.Name] = d
	}
	err := decodeList(dec, func() error {
		var e transcriptEntry
		if err := dec.Decode(&e); err != nil {
			return err
		}
		d, ok := byName[e.Device]
		if !ok {
			return fmt.Errorf("transcript of %q, which is not among the devices", e.Device)
		}
		d.Transcript = append(d.Transcript, e.Transcript...)
		return nil
	})
	if err != nil {
		return fmt.Errorf("transcripts: %w", err)
	}
	return nil
}

// decodeList calls each for every element of a JSON list (null is an empty one).
func decodeList(dec *json.Decoder, each func() error) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok == nil {
		return nil
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return fmt.Errorf("expected a list, got %v", tok)
	}
	for dec.More() {
		if err := each(); err != nil {
			return err
		}
	}
	_, err = dec.Token()
	return err
}

func expectDelim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return fmt.Errorf("expected %q, got %v", want, tok)
	}
	return nil
}

// OpenSnapshot reads the snapshot file at path (gzip-compressed or not).
func OpenSnapshot(path string, opts ReadOptions) (*Snapshot, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadSnapshot(f, opts)
}
