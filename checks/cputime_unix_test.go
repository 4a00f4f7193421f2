//go:build unix

package checks_test

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user and system) the test process has used: on a machine
// shared with other benchmarks, a steadier measure than wall time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
