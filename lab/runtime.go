package lab

import (
	"os"
	"runtime/debug"
)

// TuneRuntime sets the garbage collector of a process that only serves a lab (`lab up`):
// its live heap is small and steady (device states) while every command allocates its answer
// and drops it, so at Go's default (GOGC=100) collection was ~16% of the lab's CPU during an
// audit (perf of a 250-device lab). A higher GOGC collects less often; a 768 MiB memory limit keeps
// a large lab's heap bounded all the same. GOGC or GOMEMLIMIT set by the user win. Not for
// processes that embed a lab beside other work (tests): the settings are process-wide.
func TuneRuntime() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(MemoryLimit)
	}
}

// MemoryLimit is the lab's soft memory limit (GOMEMLIMIT unset).
const MemoryLimit = 768 << 20
