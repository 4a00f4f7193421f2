package bench

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The lab serves every run from one long-lived process, so its rusage covers its whole life;
// what one run cost it is the difference of its CPU counters (utime + stime of
// /proc/PID/stat, every thread) read before and after that run.

// userHZ is the unit of /proc/PID/stat times: USER_HZ, 100 on every Linux ABI.
const userHZ = 100

// procCPU is the CPU a live process has used so far (Linux /proc).
func procCPU(pid int) (time.Duration, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("read the lab's CPU: %w", err)
	}
	return parseProcStatCPU(string(raw))
}

// parseProcStatCPU reads utime and stime (fields 14 and 15 of proc(5)) of a stat line; the
// command name (field 2) is in parentheses and may hold spaces and parentheses itself.
func parseProcStatCPU(line string) (time.Duration, error) {
	end := strings.LastIndexByte(line, ')')
	if end < 0 {
		return 0, errors.New("proc stat: no command name")
	}
	f := strings.Fields(line[end+1:]) // from field 3 (state) on
	const utime = 14 - 3
	if len(f) <= utime+1 {
		return 0, fmt.Errorf("proc stat: %d fields after the command name, want %d", len(f), utime+2)
	}
	u, err1 := strconv.ParseUint(f[utime], 10, 64)
	s, err2 := strconv.ParseUint(f[utime+1], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, fmt.Errorf("proc stat: utime/stime: %w", err)
	}
	return time.Duration(u+s) * time.Second / userHZ, nil
}

// labMeter measures the lab's CPU over one run; ok false (with why) where /proc is not there.
type labMeter struct {
	pid    int
	before time.Duration
	err    error
}

func (l *labProcess) meter() *labMeter {
	m := &labMeter{pid: l.cmd.Process.Pid}
	m.before, m.err = procCPU(m.pid)
	return m
}

// spent is the lab's CPU since the meter was made.
func (m *labMeter) spent() (time.Duration, error) {
	if m.err != nil {
		return 0, m.err
	}
	now, err := procCPU(m.pid)
	if err != nil {
		return 0, err
	}
	return now - m.before, nil
}

func TestParseProcStatCPU(t *testing.T) {
	// A real line of proc(5) layout, the command name holding a space and a parenthesis.
	line := "4242 (roce audit) x) S 1 4242 4242 0 -1 4194560 2870 0 0 0 1234 567 0 0 20 0 9 0 123 456 789"
	got, err := parseProcStatCPU(line)
	if err != nil {
		t.Fatal(err)
	}
	if want := (1234 + 567) * 10 * time.Millisecond; got != want {
		t.Errorf("got %v, want %v", got, want)
	}
	if _, err := parseProcStatCPU("4242 (short) S 1 2"); err == nil {
		t.Error("a truncated line parsed")
	}
	if _, err := parseProcStatCPU("4242 (x) S 1 4242 4242 0 -1 4194560 2870 0 0 0 12a 567 0"); err == nil {
		t.Error("a non-numeric utime parsed")
	}
}

// procCPU of this very process grows with work it does (Linux only).
func TestProcCPUOfSelf(t *testing.T) {
	before, err := procCPU(os.Getpid())
	if err != nil {
		t.Skipf("no /proc here: %v", err)
	}
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
		x := 0
		for i := range 10_000_000 {
			x += i
		}
		_ = x
		after, err := procCPU(os.Getpid())
		if err != nil {
			t.Fatal(err)
		}
		if after > before {
			return
		}
	}
	t.Error("5s of busy loop and /proc/self/stat's CPU did not move")
}
