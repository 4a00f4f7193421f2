package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/internal/outfile"
	"github.com/roceaudit/roceaudit/reports"
	"github.com/roceaudit/roceaudit/topology"
)

// diffFormats are what a drift can be written as (stdout and --report alike).
var diffFormats = []string{"text", "json"}

func (a *app) diffCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "diff OLD.json NEW.json",
		Short: "What changed between two reports or snapshots (drift); exit 1 when a failure is new or worse",
		Long: "Compares two JSON reports (--format json / --report json=FILE) or two snapshots " +
			"(roceaudit collect; both are checked first) result by result: new and worsened " +
			"findings, fixed ones, and values that moved, then every port setting (MTU, PFC, trust, " +
			"DCBX) that changed. Exits 1 when an error, or a failure at or above " +
			"--fail-on, is new or worse. --only and --skip narrow the results compared (a device " +
			"that could not be collected is compared whatever they say); --report text=FILE or " +
			"json=FILE also writes the drift to a file; --quiet prints only its one-line summary.",
		Args: exactArgs(2, "two reports or snapshots"),
		RunE: func(_ *cobra.Command, args []string) error {
			targets, err := a.diffTargets()
			if err != nil {
				return err
			}
			if err := refuseOverwritingInputs(a.reportOutputs(), []input{{"the old report or snapshot", args[0]}, {"the new report or snapshot", args[1]}}); err != nil {
				return err
			}
			opts, failOn, err := a.checkOptions()
			if err != nil {
				return err
			}
			adviseHugeHeapOnce(memLimitFor(readDevices)) // two snapshots may be a fabric's size each
			before, err := a.loadForDiff(args[0], opts)
			if err != nil {
				return err
			}
			after, err := a.loadForDiff(args[1], opts)
			if err != nil {
				return err
			}
			for _, w := range diffCaveats(args, before, after) {
				a.warn(w)
			}
			d := reports.Diff(before, after, failOn)
			if a.quiet {
				fmt.Fprintln(a.stdout, driftSummary(d))
			} else if err := writeDrift(a.stdout, a.format, d); err != nil {
				return err
			}
			for _, t := range targets {
				if err := outfile.WriteFunc(t.file, 0o644, func(w io.Writer) error { return writeDrift(w, t.format, d) }); err != nil {
					return fmt.Errorf("writing %s drift %s: %w", t.format, t.file, err)
				}
			}
			if d.Worse > 0 {
				return auditResult{failed: true}
			}
			return nil
		},
	}
}

// diffTargets reads --report for diff: a drift is text or JSON, never a report format it
// does not have. (checkOptions then refuses, before anything is read, a file that cannot be
// written.)
func (a *app) diffTargets() ([]reportTarget, error) {
	for _, spec := range a.reportSpecs {
		if format, file, ok := strings.Cut(spec, "="); ok && format != "" && file != "" && !slices.Contains(diffFormats, format) {
			return nil, usagef("--report %q: diff writes text or json, not %q", spec, format)
		}
	}
	return a.reportTargets()
}

// loadForDiff reads a report, or a snapshot which it checks, keeping the results opts'
// --only/--skip select.
func (a *app) loadForDiff(path string, opts checks.Options) (*reports.Report, error) {
	data, err := readMaybeGzipped(path)
	if err != nil {
		return nil, usageError{fmt.Errorf("reading %s: %w", path, err)}
	}
	var probe struct {
		Schema string `json:"schema"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) { // JSON, but not an object: say what it is, not Go's type
			return nil, usagef("%s: a JSON %s, not a roceaudit report or snapshot (expected an object with \"schema\")", path, typeErr.Value)
		}
		return nil, usagef("%s: not JSON: %w", path, err)
	}
	switch probe.Schema {
	case reports.Schema:
		var rep reports.Report
		if err := json.Unmarshal(data, &rep); err != nil {
			return nil, usagef("%s: %w", path, err)
		}
		rep.Results = slices.DeleteFunc(rep.Results, func(r checks.Result) bool { return !diffWants(opts, r) })
		return &rep, nil
	case topology.SnapshotSchema:
		snap, err := topology.ReadSnapshot(bytes.NewReader(data), topology.ReadOptions{CheckedCounters: true})
		if err != nil {
			return nil, usagef("%s: not a roceaudit snapshot: %w", path, err)
		}
		if snap, err = validSnapshot(path, snap); err != nil {
			return nil, err
		}
		return a.report(snap, checks.Run(snap, checks.Options{Only: opts.Only, Skip: opts.Skip})), nil
	}
	return nil, usagef("%s: schema %q is neither %s nor %s", path, probe.Schema, reports.Schema, topology.SnapshotSchema)
}

// diffWants is the engine's filter applied to a report's results, so a report and a snapshot
// compare alike: --only/--skip select by check ID, but a device that could not be collected
// stays (filtering must never hide that a run was incomplete).
func diffWants(opts checks.Options, r checks.Result) bool {
	named := func(ids []string) bool {
		return slices.ContainsFunc(ids, func(id string) bool { return strings.EqualFold(id, r.Check) })
	}
	if (len(opts.Only) == 0 || named(opts.Only)) && !named(opts.Skip) {
		return true
	}
	c, ok := checks.Lookup(r.Check)
	return ok && c.Scope == checks.ScopeDevice && r.Status == checks.Error
}

// writeDrift writes d in format (one of diffFormats).
func writeDrift(w io.Writer, format string, d reports.Drift) error {
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(d)
	}
	return printDrift(w, d)
}

// driftSummary is the drift in one line (the last line of the text, all --quiet prints).
func driftSummary(d reports.Drift) string {
	if len(d.Changes) == 0 && len(d.Facts) == 0 {
		return "no drift: every result and setting is as it was"
	}
	return fmt.Sprintf("%s, %s, %d new or worse failures",
		countOf(len(d.Changes), "change", "changes"), countOf(len(d.Facts), "setting changed", "settings changed"), d.Worse)
}

func countOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// printDrift writes d as text; the first write error is returned.
func printDrift(out io.Writer, d reports.Drift) error {
	w := &stickyWriter{w: out}
	if len(d.Changes) == 0 && len(d.Facts) == 0 {
		fmt.Fprintln(w, driftSummary(d))
		return w.err
	}
	if len(d.Facts) > 0 {
		fmt.Fprintln(w, "settings that changed:")
		for _, f := range d.Facts {
			fmt.Fprintln(w, "  "+f.String())
		}
		fmt.Fprintln(w)
	}
	if len(d.Changes) == 0 {
		fmt.Fprintln(w, "no result changed")
	} else {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "CHANGE\tRESULT\tBEFORE\tAFTER\tNOW")
		for _, c := range d.Changes {
			now := c.Actual
			if c.Was != "" && c.Was != c.Actual {
				now = c.Was + " -> " + c.Actual
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", c.Kind, c.Key, dash(string(c.Before)), dash(string(c.After)), now)
		}
		_ = tw.Flush() // its error is w's
	}
	fmt.Fprintf(w, "\n%s\n", driftSummary(d))
	return w.err
}

// stickyWriter keeps the first write error, so a text of many small writes checks one.
type stickyWriter struct {
	w   io.Writer
	err error
}

func (s *stickyWriter) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	s.err = err
	return n, err
}

// diffCaveats are what makes a drift misleading: a partial report misses results that are
// not gone, and two reports that share no device compare two fabrics.
func diffCaveats(paths []string, reps ...*reports.Report) []string {
	var out []string
	names := make([]map[string]bool, len(reps))
	for i, r := range reps {
		if r.Interrupted != "" {
			out = append(out, fmt.Sprintf("%s is a partial report (%s): what it lacks was not read, not fixed", paths[i], r.Interrupted))
		}
		names[i] = map[string]bool{}
		for _, d := range r.Devices {
			names[i][d.Name] = true
		}
	}
	shared := false
	for n := range names[0] {
		shared = shared || names[1][n]
	}
	if !shared && len(names[0]) > 0 && len(names[1]) > 0 {
		out = append(out, fmt.Sprintf("%s and %s share no device: they are of two fabrics", paths[0], paths[1]))
	}
	return out
}
