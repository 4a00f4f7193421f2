package topology

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/recipe"
)

// sampleSnapshot is a fabric of n hosts with facts and transcripts (commands whose output
// needs JSON escaping: quotes, newlines, tabs, non-ASCII, HTML characters).
func sampleSnapshot(n int) *Snapshot {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s := &Snapshot{Schema: SnapshotSchema, ToolVersion: "test", Started: t0, Finished: t0.Add(time.Minute),
		Recipe: recipe.Default(), Paths: [][2]string{{"h0", "h1"}}}
	for i := range n {
		name := fmt.Sprintf("h%d", i)
		d := &Device{Name: name, Platform: "linux", Role: RoleHost, Address: "127.0.0.1", Reachable: true,
			Host: &HostFacts{Ports: []*HostPort{{Netdev: "eth0", RDMADevice: "mlx5_0", RDMAPort: 1,
				Link: Known(Netdev{Name: "eth0", MTU: 9000}, Evidence{Command: "ip -j link"})}},
				LLDPAgent: Known(false, Evidence{Command: "systemctl is-active lldpad"})},
			Transcript: []Exchange{
				{Command: "ip -j link", Stdout: `[{"ifname":"eth0","mtu":9000}]` + "\n", ExitCode: 0, Seconds: 0.01},
				{Command: "cat x", Stdout: "a\tb <&> \"q\" é\n", Stderr: "warn\n", ExitCode: 1, Seconds: 0.5},
			}}
		s.Devices = append(s.Devices, d)
		s.Links = append(s.Links, Link{A: PortRef{name, "eth0"}, B: PortRef{"leaf0", fmt.Sprintf("swp%d", i)}, Source: "inventory"})
	}
	s.Devices = append(s.Devices, &Device{Name: "leaf0", Platform: "cumulus", Role: RoleSwitch, Error: "refused"})
	return s
}

func encode(t testing.TB, s *Snapshot, spool *TranscriptSpool, gz bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteSnapshotFile(&buf, gz, s, spool); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestSnapshotRoundTrip(t *testing.T) {
	want := sampleSnapshot(3)
	for _, gz := range []bool{false, true} {
		data := encode(t, want, nil, gz)
		if gz != (data[0] == 0x1f && data[1] == 0x8b) {
			t.Fatalf("gzip %v: file starts %x", gz, data[:2])
		}
		got, err := ReadSnapshot(bytes.NewReader(data), ReadOptions{Transcripts: true})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("gzip %v: round trip (-want +got):\n%s", gz, diff)
		}
		facts, err := ReadSnapshot(bytes.NewReader(data), ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range facts.Devices {
			if d.Transcript != nil {
				t.Errorf("%s: transcript read though not asked for", d.Name)
			}
		}
		if facts.Devices[0].Host.Ports[0].Link.Value.MTU != 9000 || len(facts.Links) != 3 || facts.Recipe.RoCEDSCP != want.Recipe.RoCEDSCP {
			t.Errorf("facts-only read lost facts: %+v", facts.Devices[0])
		}
	}
}

// A gzipped snapshot is the plain one in three gzip members, devices, transcripts and the
// end, which any gzip reader (here the standard library's) joins.
func TestGzippedSnapshotIsThreeMembers(t *testing.T) {
	s := sampleSnapshot(3)
	plain, gz := encode(t, s, nil, false), encode(t, s, nil, true)
	br := bytes.NewReader(gz) // a ByteReader: the gzip reader reads no further than a member
	zr, err := gzip.NewReader(br)
	if err != nil {
		t.Fatal(err)
	}
	zr.Multistream(false)
	var members [][]byte
	for {
		var part bytes.Buffer
		if _, err := part.ReadFrom(zr); err != nil {
			t.Fatal(err)
		}
		members = append(members, part.Bytes())
		if err := zr.Reset(br); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		zr.Multistream(false)
	}
	if len(members) != 3 {
		t.Fatalf("%d gzip members, expected 3", len(members))
	}
	if string(members[2]) != snapshotEnd {
		t.Errorf("the last member holds %q, expected only the end", members[2])
	}
	if !bytes.HasSuffix(members[0], []byte(transcriptsOpen+"\n")) {
		t.Errorf("the first member ends %q, expected the devices' end", members[0][max(0, len(members[0])-40):])
	}
	if joined := bytes.Join(members, nil); !bytes.Equal(joined, plain) {
		t.Errorf("the members joined differ from the plain snapshot:\n%s\n%s", joined, plain)
	}
}

// The file is compact JSON that json.Unmarshal reads too (what other tools would use), and
// a snapshot whose devices carry their own transcripts (older writers) reads the same.
func TestSnapshotIsPlainJSON(t *testing.T) {
	want := sampleSnapshot(2)
	data := encode(t, want, nil, false)
	if bytes.Contains(data, []byte("\n  ")) {
		t.Error("snapshot is indented")
	}
	var generic map[string]any
	if err := json.Unmarshal(data, &generic); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	old, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadSnapshot(bytes.NewReader(old), ReadOptions{Transcripts: true})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("older layout (-want +got):\n%s", diff)
	}
}

// Transcripts spooled while collecting land in the snapshot, beside those devices carry.
func TestSpooledTranscripts(t *testing.T) {
	want := sampleSnapshot(3)
	s := sampleSnapshot(3)
	spool, err := NewTranscriptSpool(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer spool.Close()
	for _, d := range s.Devices[1:] { // h0 keeps its own
		if err := spool.Add(d.Name, d.Transcript); err != nil {
			t.Fatal(err)
		}
		d.Transcript = nil
	}
	got, err := ReadSnapshot(bytes.NewReader(encode(t, s, spool, true)), ReadOptions{Transcripts: true})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("spooled (-want +got):\n%s", diff)
	}
}

func TestSnapshotReadErrors(t *testing.T) {
	data := encode(t, sampleSnapshot(2), nil, false)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(data[:len(data)/2])
	zw.Close()
	for name, in := range map[string]string{
		"empty":            "",
		"not an object":    "[1]",
		"truncated":        string(data[:len(data)/2]),
		"truncated gzip":   gz.String(),
		"devices a string": `{"devices":"x"}`,
		"stray transcript": `{"devices":[],"transcripts":[{"device":"ghost","transcript":[]}]}`,
	} {
		if _, err := ReadSnapshot(strings.NewReader(in), ReadOptions{Transcripts: true}); err == nil {
			t.Errorf("%s: read without error", name)
		}
	}
}

// One device a line, so readers split devices without parsing them; a broken device line
// is named by its number.
func TestSnapshotLayoutIsOneDeviceALine(t *testing.T) {
	s := sampleSnapshot(5)
	data := encode(t, s, nil, false)
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	// header, 6 devices, transcripts opening, 5 transcripts, end.
	if len(lines) != 1+6+1+5+1 || !strings.HasSuffix(lines[0], `,"devices":[`) || lines[7] != `],"transcripts":[` || lines[len(lines)-1] != "]}" {
		t.Fatalf("layout:\n%s", data)
	}
	broken := strings.Replace(string(data), lines[3], lines[3][:len(lines[3])/2], 1)
	if _, err := ReadSnapshot(strings.NewReader(broken), ReadOptions{}); err == nil || !strings.Contains(err.Error(), "device 3") {
		t.Errorf("broken third device: %v", err)
	}
	indented, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadSnapshot(bytes.NewReader(indented), ReadOptions{Transcripts: true})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(s, got); diff != "" {
		t.Errorf("indented snapshot (-want +got):\n%s", diff)
	}
}
