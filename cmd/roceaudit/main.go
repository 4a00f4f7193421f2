// Command roceaudit audits RoCEv2 lossless paths end to end over SSH, read-only.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"syscall"
)

func main() {
	ctx, stop := signalContext(context.Background())
	endProfile := startProfile(os.Getenv("ROCEAUDIT_CPUPROFILE"), os.Getenv("ROCEAUDIT_MEMPROFILE"))
	code := Main(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	endProfile()
	stop()
	os.Exit(code)
}

// signalContext is signal.NotifyContext that says which signal ended it (its cause): a
// scheduler's SIGTERM exits 143 and Ctrl-C 130, as shells report them. The first signal ends
// the run, which still writes its partial reports; a second one kills it at once, as it
// would any program (reports are written whole or not at all).
func signalContext(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case s := <-ch:
			signal.Stop(ch) // the next one takes the default action
			cause := errInterrupted
			if s == syscall.SIGTERM {
				cause = errTerminated
			}
			cancel(cause)
		case <-ctx.Done():
		}
	}()
	return ctx, func() { signal.Stop(ch); cancel(nil) }
}

// startProfile is a hidden hook for profiling the real binary (the scale benchmark runs it as a
// child process, where go test -cpuprofile cannot reach): ROCEAUDIT_CPUPROFILE and
// ROCEAUDIT_MEMPROFILE name pprof files to write. Unset, it costs nothing. A profile that
// cannot be written is reported on stderr and never changes the exit code.
func startProfile(cpuPath, memPath string) (end func()) {
	var cpu *os.File
	if cpuPath != "" {
		f, err := os.Create(cpuPath)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "roceaudit: cpu profile %s: %v\n", cpuPath, err)
		} else {
			cpu = f
		}
	}
	return func() {
		if cpu != nil {
			pprof.StopCPUProfile()
			_ = cpu.Close()
		}
		if memPath == "" {
			return
		}
		f, err := os.Create(memPath)
		if err == nil {
			runtime.GC() // the heap profile reports the state as of the last GC
			err = pprof.WriteHeapProfile(f)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "roceaudit: memory profile %s: %v\n", memPath, err)
		}
	}
}
