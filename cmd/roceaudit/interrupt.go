package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/topology"
)

// startDeadline bounds the whole run by --deadline (collection, transfers, everything), as
// well as each device by --timeout.
func (a *app) startDeadline(cmd *cobra.Command) error {
	if a.deadline < 0 {
		return usagef("--deadline %s: must not be negative", a.deadline)
	}
	if a.deadline == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(cmd.Context(), a.deadline)
	// Released when mainWith cancels the run's context, whichever way the command ends.
	context.AfterFunc(cmd.Context(), cancel)
	cmd.SetContext(ctx)
	return nil
}

// partial reports what a stopped run did collect: on Ctrl-C (exit 130) or at the deadline
// (whatever the results say, at least incomplete), every report is still written, marked
// partial, with the devices that were not reached or finished as errors. Any other error is
// returned as it is.
func (a *app) partial(snap *topology.Snapshot, opts checks.Options, failOn checks.Severity, err error) error {
	canceled, late := errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded)
	if snap == nil || (!canceled && !late) {
		return err
	}
	if late {
		a.interrupted = fmt.Sprintf("the run's deadline (--deadline %s) passed", a.deadline)
		for _, d := range snap.Devices {
			if d.Error != "" && strings.Contains(d.Error, context.DeadlineExceeded.Error()) {
				d.Error = "not finished: " + a.interrupted + ": " + d.Error
			}
		}
	} else {
		a.interrupted = "interrupted (Ctrl-C or SIGTERM)"
	}
	verdict := a.checkAndReport(snap, opts, failOn)
	if canceled {
		return err
	}
	var ar auditResult
	if errors.As(verdict, &ar) && !ar.failed {
		ar.incomplete = true
		return ar
	}
	return verdict
}
