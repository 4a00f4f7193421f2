package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/reports"
	"github.com/roceaudit/roceaudit/topology"
)

func (a *app) diffCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "diff OLD.json NEW.json",
		Short: "What changed between two reports or snapshots (drift); exit 1 when a failure is new or worse",
		Long: "Compares two JSON reports (--format json / --report json=FILE) or two snapshots " +
			"(roceaudit collect; both are checked first) result by result: new and worsened " +
			"findings, fixed ones, and values that moved, then every port setting (MTU, PFC, trust, " +
			"DCBX) that changed. Exits 1 when an error, or a failure at or above " +
			"--fail-on, is new or worse.",
		Args: exactArgs(2, "two reports or snapshots"),
		RunE: func(_ *cobra.Command, args []string) error {
			if a.format != "text" && a.format != "json" {
				return usagef("diff prints text or json, not %q", a.format)
			}
			before, err := a.loadForDiff(args[0])
			if err != nil {
				return err
			}
			after, err := a.loadForDiff(args[1])
			if err != nil {
				return err
			}
			failOn, ok := checks.ParseSeverity(a.failOn)
			if !ok {
				return usagef("--fail-on %q: expected warning, error or critical", a.failOn)
			}
			d := reports.Diff(before, after, failOn)
			if a.format == "json" {
				enc := json.NewEncoder(a.stdout)
				enc.SetIndent("", "  ")
				if err := enc.Encode(d); err != nil {
					return err
				}
			} else {
				a.printDrift(d)
			}
			if d.Worse > 0 {
				return auditResult{failed: true}
			}
			return nil
		},
	}
}

// loadForDiff reads a report, or a snapshot which it checks with the default options.
func (a *app) loadForDiff(path string) (*reports.Report, error) {
	data, err := readMaybeGzipped(path)
	if err != nil {
		return nil, usageError{fmt.Errorf("reading %s: %w", path, err)}
	}
	var probe struct {
		Schema string `json:"schema"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, usagef("%s: not JSON: %w", path, err)
	}
	switch probe.Schema {
	case reports.Schema:
		var rep reports.Report
		if err := json.Unmarshal(data, &rep); err != nil {
			return nil, usagef("%s: %w", path, err)
		}
		return &rep, nil
	case topology.SnapshotSchema:
		snap, err := topology.ReadSnapshot(bytes.NewReader(data), topology.ReadOptions{CheckedCounters: true})
		if err != nil {
			return nil, usagef("%s: not a roceaudit snapshot: %w", path, err)
		}
		if snap, err = validSnapshot(path, snap); err != nil {
			return nil, err
		}
		return a.report(snap, checks.Run(snap, checks.Options{})), nil
	}
	return nil, usagef("%s: schema %q is neither %s nor %s", path, probe.Schema, reports.Schema, topology.SnapshotSchema)
}

func (a *app) printDrift(d reports.Drift) {
	if len(d.Changes) == 0 && len(d.Facts) == 0 {
		fmt.Fprintln(a.stdout, "no drift: every result and setting is as it was")
		return
	}
	if len(d.Facts) > 0 {
		fmt.Fprintln(a.stdout, "settings that changed:")
		for _, f := range d.Facts {
			fmt.Fprintln(a.stdout, "  "+f.String())
		}
		fmt.Fprintln(a.stdout)
	}
	if len(d.Changes) == 0 {
		fmt.Fprintln(a.stdout, "no result changed")
		return
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CHANGE\tRESULT\tBEFORE\tAFTER\tNOW")
	for _, c := range d.Changes {
		now := c.Actual
		if c.Was != "" && c.Was != c.Actual {
			now = c.Was + " -> " + c.Actual
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", c.Kind, c.Key, dash(string(c.Before)), dash(string(c.After)), now)
	}
	_ = tw.Flush()
	fmt.Fprintf(a.stdout, "\n%d changes, %d new or worse failures\n", len(d.Changes), d.Worse)
}
