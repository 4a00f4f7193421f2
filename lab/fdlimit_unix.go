//go:build unix

package lab

import (
	"fmt"
	"syscall"
)

// fdReserve is what a lab needs beside one listener per device: the connections the auditor
// holds at once (--concurrency, 200 in the benchmarks) and the lab's own files.
const fdReserve = 512

// checkFDLimit fails a lab before it starts when its devices cannot all listen: each device is
// one file descriptor and each connection one more, and running out part way (EMFILE) makes
// a slow, half-started lab instead of an error. Go already raises the soft RLIMIT_NOFILE to
// the hard limit at start-up; this raises it again if need be, then says what to change.
func checkFDLimit(devices int) error {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil {
		return nil // the limit is unknown: the listeners will tell
	}
	need := uint64(devices) + fdReserve
	if r.Cur >= need {
		return nil
	}
	if r.Max >= need {
		raised := syscall.Rlimit{Cur: need, Max: r.Max}
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &raised); err == nil {
			return nil
		}
	}
	return fmt.Errorf("lab: %d devices need about %d file descriptors (one listener each, plus connections), but RLIMIT_NOFILE is %d (hard limit %d): raise the hard limit (ulimit -Hn, LimitNOFILE=, docker --ulimit nofile=)",
		devices, need, r.Cur, r.Max)
}
