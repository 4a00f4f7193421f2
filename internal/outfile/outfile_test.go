package outfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func read(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestNewAndRegularFiles(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "report.json")
	if err := Check(p); err != nil {
		t.Fatalf("new file: %v", err)
	}
	if err := Write(p, []byte("one"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(p, []byte("two"), 0o600); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(p)
	if read(t, p) != "two" || st.Mode().Perm() != 0o600 {
		t.Errorf("content %q perm %v", read(t, p), st.Mode().Perm())
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// A symlink is written through: the link stays a link and its target gets the data, whether
// the target exists, dangles, or is named relatively.
func TestSymlinksAreWrittenThrough(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "real"), 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dir, "real", "report.html")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, dest := range map[string]string{"abs.html": target, "rel.html": "real/report.html", "dangling.html": "real/new.html"} {
		link := filepath.Join(dir, name)
		if err := os.Symlink(dest, link); err != nil {
			t.Fatal(err)
		}
		if err := Check(link); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := Write(link, []byte("via "+name), 0o644); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if st, _ := os.Lstat(link); st.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s was replaced by a regular file", name)
		}
		if got := read(t, link); got != "via "+name {
			t.Errorf("%s: target holds %q", name, got)
		}
	}
	loop := filepath.Join(dir, "loop")
	_ = os.Symlink(loop, loop)
	if err := Write(loop, []byte("x"), 0o644); err == nil || !strings.Contains(err.Error(), "too many levels") {
		t.Errorf("symlink loop: %v", err)
	}
}

// readFIFO reads what the FIFO's writer sends, in the background, as a reader of a pipe does.
func readFIFO(fifo string) <-chan string {
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- err.Error()
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- string(b)
	}()
	return got
}

// A FIFO (as /dev/stdout is when piped) and a device are written to, never replaced.
func TestFIFOAndDeviceAreWrittenTo(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "stdout") // like /dev/stdout -> /proc/self/fd/1 -> pipe
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	got := readFIFO(fifo)
	if err := Write(link, []byte("report"), 0o644); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "report" {
		t.Errorf("reader got %q", s)
	}
	if st, _ := os.Lstat(fifo); st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v", st.Mode())
	}
	if err := Write("/dev/null", []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat("/dev/null"); st.Mode()&os.ModeCharDevice == 0 {
		t.Errorf("/dev/null is no longer a device: %v", st.Mode())
	}
}

// hardLinkedPair is two names in dir of one file holding "old content".
func hardLinkedPair(t *testing.T, dir string) (a, b string) {
	t.Helper()
	a, b = filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := os.WriteFile(a, []byte("old content"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(a, b); err != nil {
		t.Fatal(err)
	}
	return a, b
}

func TestHardLinkedFileKeepsItsLinks(t *testing.T) {
	dir := t.TempDir()
	a, b := hardLinkedPair(t, dir)
	if err := Write(a, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if read(t, a) != "new" || read(t, b) != "new" {
		t.Errorf("a %q b %q", read(t, a), read(t, b))
	}
}

func TestFoldersAreRefused(t *testing.T) {
	dir := t.TempDir()
	if err := Check(dir); err == nil || !strings.Contains(err.Error(), "is a folder") {
		t.Errorf("folder: %v", err)
	}
	if err := Write(dir, []byte("x"), 0o644); err == nil {
		t.Error("wrote over a folder")
	}
	if err := Check(filepath.Join(dir, "missing", "r.json")); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("missing folder: %v", err)
	}
	link := filepath.Join(dir, "tofolder")
	_ = os.Symlink(dir, link)
	if err := Check(link); err == nil {
		t.Error("a symlink to a folder passed")
	}
}

// failAfter writes part of a report, then fails, as a renderer can midway.
func failAfter(w io.Writer) error {
	_, _ = io.WriteString(w, "partial report")
	return errors.New("render failed")
}

// A hard-linked file or a FIFO is written in place, yet a write that fails midway leaves the
// file as it was and gives the FIFO's reader an end with nothing, never half a report.
func TestFailedWriteInPlaceLeavesNoPartialReport(t *testing.T) {
	dir := t.TempDir()
	a, b := hardLinkedPair(t, dir)
	if err := WriteFunc(a, 0o644, failAfter); err == nil {
		t.Fatal("a failed write reported success")
	}
	if read(t, a) != "old content" || read(t, b) != "old content" {
		t.Errorf("after a failed write: a %q b %q", read(t, a), read(t, b))
	}

	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	got := readFIFO(fifo)
	if err := WriteFunc(fifo, 0o644, failAfter); err == nil {
		t.Fatal("a failed write to a FIFO reported success")
	}
	if s := <-got; s != "" {
		t.Errorf("the FIFO's reader got %q", s)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*spool*")); len(left) != 0 {
		t.Errorf("spool files left: %v", left)
	}
}
