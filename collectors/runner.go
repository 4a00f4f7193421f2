// Package collectors turns devices into facts: a Runner sends allowlisted read-only commands,
// and one package per platform parses what comes back.
package collectors

import (
	"context"
	"errors"
)

// Output is what one command returned. A non-zero ExitCode is not a Go error: parsers decide
// what it means (grep exits 2 when some sysfs files are unreadable, for example).
type Output struct {
	Stdout   string
	Stderr   string
	ExitCode int
}

// Runner sends one command to one device. The error is for transport failures and refusals
// (the command was not run); a command that ran and failed is an Output with ExitCode != 0.
type Runner interface {
	Run(ctx context.Context, command string) (Output, error)
}

// ErrNotAllowed is returned when a command is not on the platform's read-only allowlist.
var ErrNotAllowed = errors.New("command not on the read-only allowlist")
