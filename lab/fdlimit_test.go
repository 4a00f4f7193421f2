//go:build unix

package lab

import (
	"strings"
	"syscall"
	"testing"
)

func TestCheckFDLimit(t *testing.T) {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil {
		t.Skipf("no RLIMIT_NOFILE: %v", err)
	}
	if err := checkFDLimit(1); err != nil {
		t.Errorf("one device: %v", err)
	}
	if r.Max > 1<<30 {
		t.Skipf("hard limit %d: no lab size exceeds it", r.Max)
	}
	err := checkFDLimit(int(r.Max)) // the devices alone use every descriptor the hard limit allows
	if err == nil || !strings.Contains(err.Error(), "RLIMIT_NOFILE") {
		t.Errorf("a lab past the hard limit: %v, want an error naming RLIMIT_NOFILE", err)
	}
}
