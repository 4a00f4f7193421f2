package outfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
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

// fdPath names descriptor fd of this process as the user would: /dev/fd/N, and /dev/stdout
// is /proc/self/fd/1.
func fdPath(t *testing.T, f *os.File) string {
	t.Helper()
	p := "/dev/fd/" + strconv.Itoa(int(f.Fd()))
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("no /proc: descriptors are not links here")
	}
	return p
}

// A name for one of the process's descriptors open on a pipe (/dev/stdout | cat) is written
// through the descriptor: its link text, pipe:[N], is not a file name.
func TestDescriptorOnAPipeIsWrittenThrough(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	got := make(chan string, 1)
	go func() { b, _ := io.ReadAll(r); got <- string(b) }()
	for _, p := range []string{fdPath(t, w), "/proc/self/fd/" + strconv.Itoa(int(w.Fd()))} {
		tg, err := Resolve(p)
		if err != nil {
			t.Fatal(err)
		}
		if tg.Overwrites() {
			t.Errorf("%s: a pipe counted as a file to overwrite", p)
		}
		if err := tg.Check(); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if err := Write(p, []byte("report "), 0o644); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
	}
	w.Close()
	if s := <-got; s != "report report " {
		t.Errorf("the pipe's reader got %q", s)
	}
}

// A descriptor open on a regular file (stdout redirected to a file) is written where the
// process's output stands, never renamed over: the shell's file keeps what was written before.
func TestDescriptorOnAFileIsAppendedTo(t *testing.T) {
	p := filepath.Join(t.TempDir(), "out.txt")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString("summary\n"); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(p)
	if err := Write(fdPath(t, f), []byte("report\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("after\n"); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(p)
	if !os.SameFile(before, after) {
		t.Error("the file was replaced")
	}
	if got := read(t, p); got != "summary\nreport\nafter\n" {
		t.Errorf("file holds %q", got)
	}
}

func TestUnusableDescriptorsAreRefused(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("no /proc")
	}
	if err := Check("/proc/self/fd/987654"); err == nil || !strings.Contains(err.Error(), "not open") {
		t.Errorf("a closed descriptor: %v", err)
	}
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := Check(fdPath(t, f)); err == nil || !strings.Contains(err.Error(), "reading only") {
		t.Errorf("a read-only descriptor: %v", err)
	}
}

// Replacing a file keeps its mode, owner and group: a report kept private stays private.
func TestReplacedFileKeepsModeAndOwner(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "private.json")
	if err := os.WriteFile(p, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o640); err != nil {
		t.Fatal(err)
	}
	uid, gid := os.Getuid(), os.Getgid()
	if os.Geteuid() == 0 {
		uid, gid = 4321, 8765 // only root may give a file away
	} else if gs, _ := os.Getgroups(); len(gs) > 0 {
		gid = gs[len(gs)-1]
	}
	if err := os.Chown(p, uid, gid); err != nil {
		t.Fatal(err)
	}
	if err := Write(p, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	s := st.Sys().(*syscall.Stat_t)
	if read(t, p) != "new" || st.Mode().Perm() != 0o640 || int(s.Uid) != uid || int(s.Gid) != gid {
		t.Errorf("content %q mode %v owner %d:%d, want 0640 %d:%d", read(t, p), st.Mode().Perm(), s.Uid, s.Gid, uid, gid)
	}
	fresh := filepath.Join(dir, "new.json")
	if err := Write(fresh, []byte("x"), 0o604); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(fresh); st.Mode().Perm() != 0o604 {
		t.Errorf("a new file has mode %v, want the one asked for", st.Mode().Perm())
	}
}

// Check tries the folder: /proc gives every permission yet takes no new file.
func TestCheckFindsAFolderThatTakesNoFile(t *testing.T) {
	if _, err := os.Stat("/proc/self"); err != nil {
		t.Skip("no /proc")
	}
	if err := Check("/proc/r.json"); err == nil || !strings.Contains(err.Error(), "cannot create a file in folder /proc") {
		t.Errorf("/proc/r.json: %v", err)
	}
	dir := t.TempDir()
	if err := Check(filepath.Join(dir, "r.json")); err != nil {
		t.Errorf("a writable folder: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) != 0 {
		t.Errorf("Check left %v", left)
	}
}

// Same is one file by identity: through a symlink, a hard link or another spelling of the
// path, and for files not yet created by their folder.
func TestSameFile(t *testing.T) {
	dir := t.TempDir()
	a, b := hardLinkedPair(t, dir)
	link := filepath.Join(dir, "link")
	if err := os.Symlink("a", link); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other")
	if err := os.WriteFile(other, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Symlink(".", sub); err != nil {
		t.Fatal(err)
	}
	resolve := func(p string) Target {
		tg, err := Resolve(p)
		if err != nil {
			t.Fatal(err)
		}
		return tg
	}
	for _, tc := range []struct {
		x, y string
		same bool
	}{
		{a, b, true}, {a, link, true}, {a, filepath.Join(dir, ".", "a"), true}, {a, other, false},
		{filepath.Join(dir, "new"), filepath.Join(sub, "new"), true},
		{filepath.Join(dir, "new"), filepath.Join(dir, "new2"), false},
		{filepath.Join(dir, "new"), a, false},
	} {
		if got := resolve(tc.x).Same(resolve(tc.y)); got != tc.same {
			t.Errorf("Same(%s, %s) = %v", tc.x, tc.y, got)
		}
	}
	if !resolve(a).Overwrites() || !resolve(filepath.Join(dir, "new")).Overwrites() || resolve(os.DevNull).Overwrites() {
		t.Error("Overwrites: a file and a new file are overwritten, a device is not")
	}
}
