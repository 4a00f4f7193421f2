package main

import (
	"context"
	"errors"
	"fmt"
	"io"
)

// Exit codes, mapped here and nowhere else.
const (
	exitOK          = 0
	exitFailed      = 1   // a check failed at or above --fail-on
	exitUsage       = 2   // usage, inventory or recipe error: nothing was audited
	exitIncomplete  = 3   // no failure, but some check is `error`
	exitInterrupted = 130 // Ctrl-C (shell convention, 128 + SIGINT; outside the contract's table)
	exitTerminated  = 143 // SIGTERM, as a scheduler stops a run (128 + SIGTERM)
)

// The causes of a run's context ended by a signal (see signalContext).
var (
	errInterrupted = errors.New("interrupted")
	errTerminated  = errors.New("terminated (SIGTERM)")
)

// usageError marks errors that mean "nothing was audited because the input is wrong".
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// auditResult is returned by commands that ran checks; it carries the verdict, not a failure
// of the tool itself.
type auditResult struct {
	failed, incomplete bool
}

func (a auditResult) Error() string {
	switch {
	case a.failed:
		return "audit failed"
	case a.incomplete:
		return "audit incomplete"
	}
	return "audit passed"
}

// exitCode maps what a command returned to the process exit code, printing real errors.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	var ar auditResult
	if errors.As(err, &ar) {
		switch {
		case ar.failed:
			return exitFailed
		case ar.incomplete:
			return exitIncomplete
		}
		return exitOK
	}
	if errors.Is(err, context.Canceled) {
		if errors.Is(err, errTerminated) {
			fmt.Fprintln(stderr, "roceaudit: "+errTerminated.Error())
			return exitTerminated
		}
		fmt.Fprintln(stderr, "roceaudit: "+errInterrupted.Error()) // Ctrl-C, or a cancel without a signal
		return exitInterrupted
	}
	fmt.Fprintln(stderr, "roceaudit: "+err.Error())
	// Anything else (bad flags, bad inventory, unwritable report) means nothing usable was
	// produced: the usage/input class.
	return exitUsage
}
