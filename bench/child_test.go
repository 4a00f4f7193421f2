package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// usage is what one child process cost: wall time, CPU (user+system) and peak RSS, read
// from its rusage (what the kernel counted, not what the process says of itself).
type usage struct {
	wall, cpu time.Duration
	maxRSS    int64 // bytes
	exit      int
}

func rusageOf(ps *os.ProcessState) (cpu time.Duration, rss int64) {
	if ps == nil {
		return 0, 0
	}
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, 0
	}
	cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	rss = ru.Maxrss * 1024 // KiB on Linux
	if runtime.GOOS == "darwin" {
		rss = ru.Maxrss // bytes there
	}
	return cpu, rss
}

// runChild runs bin with args to completion (bounded by timeout) and measures it.
func runChild(t *testing.T, timeout time.Duration, bin string, args ...string) (usage, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var stderr bytes.Buffer
	stdout := &tail{max: 4 << 10}
	cmd.Stdout, cmd.Stderr = stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	u := usage{wall: time.Since(start)}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		u.exit = ee.ExitCode()
	default:
		t.Fatalf("%s %v: %v", bin, args, err)
	}
	u.cpu, u.maxRSS = rusageOf(cmd.ProcessState)
	if strings.TrimSpace(stderr.String()) == "" {
		// --quiet runs say why they failed in their one summary line (exit 3: N errors).
		return u, stdout.lastLine()
	}
	return u, stderr.String()
}

// tail keeps the last max bytes written to it.
type tail struct {
	max int
	b   []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if over := len(t.b) - t.max; over > 0 {
		t.b = append(t.b[:0], t.b[over:]...)
	}
	return len(p), nil
}

func (t *tail) lastLine() string {
	s := strings.TrimRight(string(t.b), "\n")
	return s[strings.LastIndexByte(s, '\n')+1:]
}

// buildBinary builds roceaudit as users run it.
func buildBinary(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "roceaudit")
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goBin); err != nil {
		goBin = "go"
	}
	cmd := exec.Command(goBin, "build", "-o", bin, "../cmd/roceaudit")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// shortTempDir is a temporary folder with a short path: OpenSSH control sockets must fit
// in 108 bytes.
func shortTempDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("/tmp", "rb-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

func mib(b int64) string { return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20)) }

// mkdirTemp is a temporary folder for the shared collected fabric's lab, which outlives any
// one benchmark's TempDir; it is removed once the fabric is collected.
func mkdirTemp() (string, error) { return os.MkdirTemp("", "roceaudit-bench-") }

func TestTailKeepsTheLastLine(t *testing.T) {
	tl := &tail{max: 32}
	for _, s := range []string{"first line\n", "a much longer second line\n", "10 devices: 3 errors\n"} {
		_, _ = tl.Write([]byte(s))
	}
	if got := tl.lastLine(); got != "10 devices: 3 errors" {
		t.Errorf("lastLine = %q", got)
	}
	if len(tl.b) > 32 {
		t.Errorf("kept %d bytes, max 32", len(tl.b))
	}
}
