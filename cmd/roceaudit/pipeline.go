package main

import (
	"context"
	"errors"
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
	// Every command that writes reports loads its inventory here, before contacting anything.
	if err := refuseOverwritingInputs(a.reportOutputs(), inventoryInputs(inv)); err != nil {
		return nil, err
	}
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
	a.failOn = string(failOn) // as the reports read it too
	if err := checks.ValidateIDs(append(append([]string(nil), a.only...), a.skip...)); err != nil {
		return checks.Options{}, "", usageError{err}
	}
	if len(a.only) > 0 && len(a.skip) > 0 && !slices.ContainsFunc(a.only, func(id string) bool { return !slices.Contains(a.skip, id) }) {
		return checks.Options{}, "", usagef("--only %s with --skip %s leaves no check to run", strings.Join(a.only, ","), strings.Join(a.skip, ","))
	}
	if err := a.checkReportTargets(); err != nil {
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
	if err := refuseOverwritingInputs(a.reportOutputs(), []input{{"the waivers file", a.waiversFile}}); err != nil {
		return checks.Options{}, "", err
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
	if err := sshclient.CheckLocal(inv, a.tofu); err != nil {
		return nil, usageError{err}
	}
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
// every --report file. One output that fails does not stop the others: each failure is said
// on stderr as it happens (an interrupted run says no more), and the error returned counts
// them.
func (a *app) emit(rep *reports.Report) error {
	targets, err := a.reportTargets()
	if err != nil {
		return err
	}
	var failed []error
	stdoutFailed := false
	fail := func(err error) {
		fmt.Fprintln(a.stderr, "roceaudit: "+err.Error())
		failed = append(failed, err)
	}
	if a.quiet {
		if _, err := fmt.Fprintln(a.stdout, reports.SummaryLine(rep)); err != nil {
			fail(fmt.Errorf("writing the summary to stdout: %w", err))
			stdoutFailed = true
		}
	} else {
		r, err := reports.Lookup(a.format)
		if err != nil {
			return usagef("--format: %w", err)
		}
		if err := r.Render(a.stdout, rep, reports.Options{Color: a.wantColor(), Verbose: a.verbose, FailOn: checks.Severity(a.failOn), Width: a.textWidth()}); err != nil {
			fail(fmt.Errorf("writing the %s report to stdout: %w", a.format, err))
			stdoutFailed = true
		}
	}
	// Each file is rendered straight into it (a report is as big as the fabric); outfile
	// renames a regular file into place only once it is whole.
	for _, t := range targets {
		var rerr error
		err := outfile.WriteFunc(t.file, 0o644, func(w io.Writer) error {
			rerr = t.renderer.Render(w, rep, reports.Options{Verbose: a.verbose, FailOn: checks.Severity(a.failOn)})
			return rerr
		})
		switch {
		case rerr != nil:
			fail(fmt.Errorf("rendering %s report %s: %w", t.format, t.file, rerr))
		case err != nil:
			fail(fmt.Errorf("writing %s report %s: %w", t.format, t.file, err))
		}
	}
	if len(failed) > 0 {
		return unwrittenReports{errs: failed, stdout: stdoutFailed, files: len(targets)}
	}
	return nil
}

// unwrittenReports is a run whose outputs were not all written: exit 2, as nothing usable may
// have been produced where it was expected, but the message still says how the audit went.
type unwrittenReports struct {
	errs    []error // each output that failed, already said on stderr
	stdout  bool    // stdout was one of them
	files   int     // --report files
	verdict error   // what the run would have returned; never unwrapped, or it would set the exit code
}

func (e unwrittenReports) Error() string {
	var what []string
	if e.stdout {
		what = append(what, "the report on stdout")
	}
	if n := len(e.errs) - btoi(e.stdout); n > 0 {
		what = append(what, fmt.Sprintf("%d of %d --report files", n, e.files))
	}
	msg := strings.Join(what, " and ") + " not written (see above)"
	var ar auditResult
	if errors.As(e.verdict, &ar) {
		msg += fmt.Sprintf("; %s (exit %d had every report been written)", ar, exitCode(ar, io.Discard))
	}
	return msg
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (e unwrittenReports) Unwrap() []error { return e.errs }

type reportTarget struct {
	spec, format, file string
	renderer           reports.Renderer
}

// reportTargets reads --report FORMAT=FILE values.
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
		out = append(out, reportTarget{spec: spec, format: format, file: file, renderer: r})
	}
	return out, nil
}

// checkReportTargets refuses, before anything is collected, a report that cannot be written
// or that would overwrite another: rather than at the end of an hour-long audit.
func (a *app) checkReportTargets() error {
	targets, err := a.reportTargets()
	if err != nil {
		return err
	}
	outs := make([]output, 0, len(targets))
	for _, t := range targets {
		o, err := outfile.Resolve(t.file)
		if err == nil {
			err = o.Check()
		}
		if err != nil {
			return usagef("--report %q: %w", t.spec, err)
		}
		outs = append(outs, output{name: "--report " + t.spec, target: o})
	}
	return distinctOutputs(outs)
}

// output is a file the run writes, with the flag that named it.
type output struct {
	name   string // e.g. "--report json=r.json", "-o snap.json"
	target outfile.Target
}

// reportOutputs are the --report files that can be resolved (checkReportTargets refuses the
// rest, for the commands that write reports).
func (a *app) reportOutputs() []output {
	targets, _ := a.reportTargets()
	var outs []output
	for _, t := range targets {
		if o, err := outfile.Resolve(t.file); err == nil {
			outs = append(outs, output{name: "--report " + t.spec, target: o})
		}
	}
	return outs
}

// distinctOutputs refuses two outputs that are one file, where the last would silently
// win. A stream (stdout, a pipe, a device) may take several, one after the other.
func distinctOutputs(outs []output) error {
	for i, o := range outs {
		for _, p := range outs[:i] {
			if (o.target.Overwrites() || p.target.Overwrites()) && o.target.Same(p.target) {
				return usagef("%s and %s name the same file: one would overwrite the other", p.name, o.name)
			}
		}
	}
	return nil
}

// input is a file the run reads.
type input struct{ what, path string }

// refuseOverwritingInputs refuses an output that would overwrite one of the run's inputs:
// the same file by identity (a symlink or hard link to it included), not only by name.
func refuseOverwritingInputs(outs []output, ins []input) error {
	if len(outs) == 0 {
		return nil
	}
	seen := map[string]bool{}
	for _, in := range ins {
		if in.path == "" || seen[in.path] {
			continue
		}
		seen[in.path] = true
		it, err := outfile.Resolve(in.path)
		if err != nil {
			continue // reading it fails, and says why
		}
		for _, o := range outs {
			if o.target.Overwrites() && o.target.Same(it) {
				return usagef("%s would overwrite %s %s", o.name, in.what, in.path)
			}
		}
	}
	return nil
}

// inventoryInputs are the files an inventory was read from and the run reads later: the
// source file, its --defaults overlay and CA bundle, and every device's known_hosts
// (trust-on-first-use adds to it) and identity file.
func inventoryInputs(inv *inventory.Inventory) []input {
	ins := []input{{"the inventory", inv.Read.Source}, {"the --defaults file", inv.Read.Defaults}, {"the NetBox CA file", inv.Read.CA}}
	for _, d := range inv.Devices {
		ins = append(ins, input{"the known_hosts file", d.Conn.KnownHosts})
		if d.Conn.IdentityFile != "ssh-agent" {
			ins = append(ins, input{"the identity file", d.Conn.IdentityFile})
		}
	}
	return ins
}

// verdict turns results into the exit status carrier.
func verdict(results []checks.Result, failOn checks.Severity) error {
	o := checks.Judge(results, failOn)
	return auditResult{failed: o.Failed, incomplete: o.Incomplete}
}
