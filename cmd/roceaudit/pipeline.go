package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/cli"
	"github.com/roceaudit/roceaudit/collectors/sshclient"
	"github.com/roceaudit/roceaudit/internal/outfile"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/reports"
	"github.com/roceaudit/roceaudit/topology"
)

// loadInventory reads and validates an inventory; every problem is a usage error (exit 2).
func (a *app) loadInventory(path string) (*inventory.Inventory, error) {
	if path == "" {
		return nil, usagef("no inventory: pass -i FILE (see `roceaudit lab up` for a ready one)")
	}
	inv, err := inventory.Open(path, a.reg)
	if err != nil {
		return nil, usageError{err}
	}
	a.inventoryWarnings(inv)
	if a.timeout > 0 {
		for i := range inv.Devices {
			inv.Devices[i].Conn.Timeout = a.timeout
		}
	}
	return inv, nil
}

// checkOptions validates --only/--skip/--fail-on before anything is sent.
func (a *app) checkOptions() (checks.Options, checks.Severity, error) {
	failOn, ok := checks.ParseSeverity(a.failOn)
	if !ok {
		return checks.Options{}, "", usagef("--fail-on %q: expected warning, error or critical", a.failOn)
	}
	if err := checks.ValidateIDs(append(append([]string(nil), a.only...), a.skip...)); err != nil {
		return checks.Options{}, "", usageError{err}
	}
	if len(a.only) > 0 && len(a.skip) > 0 && !slices.ContainsFunc(a.only, func(id string) bool { return !slices.Contains(a.skip, id) }) {
		return checks.Options{}, "", usagef("--only %s with --skip %s leaves no check to run", strings.Join(a.only, ","), strings.Join(a.skip, ","))
	}
	if _, err := a.reportTargets(); err != nil {
		return checks.Options{}, "", err
	}
	if _, err := reports.Lookup(a.format); err != nil {
		return checks.Options{}, "", usagef("--format: %w", err)
	}
	if a.concurrency < 1 {
		return checks.Options{}, "", usagef("--concurrency %d: expected 1 or more", a.concurrency)
	}
	if a.timeout < 0 {
		return checks.Options{}, "", usagef("--timeout %s: must not be negative", a.timeout)
	}
	if err := a.loadWaivers(); err != nil {
		return checks.Options{}, "", err
	}
	return checks.Options{Only: a.only, Skip: a.skip, Remedy: a.reg.Remedy}, failOn, nil
}

// collect runs the collectors over the inventory with a progress bar when it helps.
func (a *app) collect(ctx context.Context, inv *inventory.Inventory) (*topology.Snapshot, error) {
	return a.collectTo(ctx, inv, nil)
}

// collectTo is collect handing each device's facts to facts when it is set (the snapshot
// then holds none: see collectors.Options.Facts).
func (a *app) collectTo(ctx context.Context, inv *inventory.Inventory, facts collectors.FactSink) (*topology.Snapshot, error) {
	limitMemory(len(inv.Devices))
	paceCollection()
	defer stopPacingCollection()
	bar := newProgress(a.stderr, len(inv.Devices), a.quiet)
	defer bar.finish()
	opts := collectors.Options{
		Concurrency: a.concurrency,
		Progress:    bar.step,
		Transcripts: a.transcripts(),
		Facts:       facts,
		ChecksOnly:  a.spool == nil, // no snapshot is written
	}
	snap, err := collectors.Collect(ctx, inv, a.reg, a.dialer(), opts)
	if snap != nil {
		snap.ToolVersion = version()
		snap.Simulated = snap.Simulated || inv.Simulated
	}
	return snap, err
}

// transcripts is where transcripts go while collecting: to the spool of a snapshot being
// written, else nowhere (no check or report reads them).
func (a *app) transcripts() topology.TranscriptSink {
	if a.spool != nil {
		return a.spool
	}
	return topology.DiscardTranscripts
}

// dialer opens SSH exec sessions, or interactive CLI sessions for the platforms that need one.
func (a *app) dialer() collectors.Dialer {
	return cli.NewMultiDialer(sshclient.NewDialer(a.tofu), cli.Dialer{Platforms: a.reg, TrustOnFirstUse: a.tofu}, a.reg.Interactive)
}

// report builds the report of a snapshot's results.
func (a *app) report(snap *topology.Snapshot, results []checks.Result) *reports.Report {
	rep := reports.FromSnapshot(snap, results)
	rep.ToolVersion = version()
	if a.interrupted != "" {
		rep.Interrupted = a.interrupted
	}
	return rep
}

// emit prints the report on stdout (with --quiet, only its one-line summary), then writes
// every --report file.
func (a *app) emit(rep *reports.Report) error {
	targets, err := a.reportTargets()
	if err != nil {
		return err
	}
	if a.quiet {
		fmt.Fprintln(a.stdout, reports.SummaryLine(rep))
	} else {
		r, err := reports.Lookup(a.format)
		if err != nil {
			return usagef("--format: %w", err)
		}
		if err := r.Render(a.stdout, rep, reports.Options{Color: a.wantColor(), Verbose: a.verbose}); err != nil {
			return err
		}
	}
	// Each file is rendered straight into it (a report is as big as the fabric); outfile
	// renames a regular file into place only once it is whole.
	for _, t := range targets {
		var rerr error
		err := outfile.WriteFunc(t.file, 0o644, func(w io.Writer) error {
			rerr = t.renderer.Render(w, rep, reports.Options{Verbose: a.verbose})
			return rerr
		})
		if rerr != nil {
			return fmt.Errorf("rendering %s report: %w", t.format, rerr)
		}
		if err != nil {
			return fmt.Errorf("writing %s report %s: %w", t.format, t.file, err)
		}
	}
	return nil
}

type reportTarget struct {
	format, file string
	renderer     reports.Renderer
}

func (a *app) reportTargets() ([]reportTarget, error) {
	var out []reportTarget
	for _, spec := range a.reportSpecs {
		format, file, ok := strings.Cut(spec, "=")
		if !ok || format == "" || file == "" {
			return nil, usagef("--report %q: expected FORMAT=FILE, e.g. json=report.json", spec)
		}
		r, err := reports.Lookup(format)
		if err != nil {
			return nil, usagef("--report %q: %w", spec, err)
		}
		// Refuse a report that cannot be written before anything is collected.
		if err := outfile.Check(file); err != nil {
			return nil, usagef("--report %q: %w", spec, err)
		}
		out = append(out, reportTarget{format: format, file: file, renderer: r})
	}
	return out, nil
}

// verdict turns results into the exit status carrier.
func verdict(results []checks.Result, failOn checks.Severity) error {
	o := checks.Judge(results, failOn)
	return auditResult{failed: o.Failed, incomplete: o.Incomplete}
}
