package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/internal/outfile"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/reports"
	"github.com/roceaudit/roceaudit/topology"
)

func (a *app) auditCmd() *cobra.Command {
	var inv string
	var paths []string
	xf := &transferFlags{}
	cmd := &cobra.Command{
		Use:   "audit -i INVENTORY",
		Short: "Collect, check and report (exit 0 pass, 1 fail, 2 bad input, 3 incomplete)",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts, failOn, err := a.checkOptions()
			if err != nil {
				return err
			}
			if err := xf.check(); err != nil {
				return err
			}
			in, err := a.loadInventory(inv)
			if err != nil {
				return err
			}
			specs, err := parsePathFlags(paths)
			if err != nil {
				return err
			}
			if err := checkEndpoints(in, specs, "--path %s,%s"); err != nil {
				return err
			}
			// --path narrows the audit to the hops of its paths; the inventory's
			// paths: add path checks and transfers on top of the whole-fabric audit.
			opts.Restrict = len(specs) > 0
			if len(specs) == 0 {
				specs = inventoryPaths(in)
			}
			opts.Paths = specs
			if xf.allPaths && !xf.enabled {
				return usagef("--all-paths steps the test transfer: it needs --transfer")
			}
			if xf.enabled && len(specs) == 0 {
				return usagef("--transfer needs endpoints: --path FROM,TO or the inventory's paths:")
			}
			snap, err := a.collect(cmd.Context(), in)
			if err != nil {
				return a.partial(snap, opts, failOn, err)
			}
			if xf.enabled {
				if err := a.runTransfers(cmd.Context(), in, snap, specs, xf); err != nil {
					return a.partial(snap, opts, failOn, err)
				}
			}
			return a.checkAndReport(snap, opts, failOn)
		},
	}
	xf.register(cmd, true)
	inventoryFlag(cmd, &inv)
	cmd.Flags().StringArrayVar(&paths, "path", nil, "audit only the hops of the paths between FROM,TO (host, host:netdev or IP); repeatable (the inventory's paths: add path checks without narrowing)")
	return cmd
}

func devicesWithResults(devs []reports.DeviceSummary, results []checks.Result) []reports.DeviceSummary {
	has := map[string]bool{}
	for _, r := range results {
		has[r.Device] = true
	}
	out := []reports.DeviceSummary{}
	for _, d := range devs {
		if has[d.Name] {
			out = append(out, d)
		}
	}
	return out
}

// parsePathFlags reads --path FROM,TO values.
func parsePathFlags(values []string) ([]checks.PathSpec, error) {
	var out []checks.PathSpec
	for _, v := range values {
		from, to, ok := strings.Cut(v, ",")
		from, to = strings.TrimSpace(from), strings.TrimSpace(to)
		if !ok || from == "" || to == "" || strings.Contains(to, ",") {
			return nil, usagef("--path %q: expected FROM,TO, e.g. gpu01:ens1f0np0,gpu07:ens1f0np0", v)
		}
		out = append(out, checks.PathSpec{From: from, To: to})
	}
	return out, nil
}

// checkEndpoints refuses, before any device is contacted, endpoints the inventory cannot
// have: an unknown host, a switch, the same endpoint twice.
// label names a pair as the user typed it, e.g. "--path %s,%s".
func checkEndpoints(in *inventory.Inventory, specs []checks.PathSpec, label string) error {
	for _, sp := range specs {
		if err := in.CheckEndpointPair(sp.From, sp.To); err != nil {
			return usagef(label+": %w", sp.From, sp.To, err)
		}
	}
	return nil
}

// snapshotInventory is the inventory a snapshot was collected from, as far as endpoints are
// concerned: its devices, and for a host with collected ports the netdevs it has.
func snapshotInventory(snap *topology.Snapshot) *inventory.Inventory {
	in := &inventory.Inventory{Devices: make([]inventory.DeviceSpec, 0, len(snap.Devices))}
	for _, d := range snap.Devices {
		spec := inventory.DeviceSpec{Name: d.Name, Role: d.Role, Platform: d.Platform, Address: d.Address}
		if d.Host != nil {
			for _, p := range d.Host.Ports {
				spec.Interfaces = append(spec.Interfaces, p.Netdev)
			}
		}
		in.Devices = append(in.Devices, spec)
	}
	return in
}

func inventoryPaths(in *inventory.Inventory) []checks.PathSpec {
	var out []checks.PathSpec
	for _, p := range in.Paths {
		out = append(out, checks.PathSpec{From: p[0], To: p[1]})
	}
	return out
}

// checkAndReport is the tail every auditing command shares: checks, report, verdict.
func (a *app) checkAndReport(snap *topology.Snapshot, opts checks.Options, failOn checks.Severity) error {
	collectLessWhileChecking()
	results, waived := a.applyWaivers(checks.Run(snap, opts))
	rep := a.report(snap, results)
	rep.Waivers = waived
	rep.Paths = reportPaths(checks.ResolvePaths(snap, opts.Paths))
	rep.Transfers = reportTransfers(snap.Transfers)
	switch {
	case onlyTransferChecks(opts): // the transfers' hops, switches without a result of their own too
		rep.Devices = devicesOfTransfers(rep)
	case opts.Restrict:
		rep.Devices = devicesWithResults(rep.Devices, results) // the rest were out of scope
	}
	result := verdict(results, failOn)
	if err := a.emit(rep); err != nil {
		var unwritten unwrittenReports
		if errors.As(err, &unwritten) {
			if ar, ok := result.(auditResult); ok && a.interrupted != "" && !ar.failed {
				result = auditResult{incomplete: true} // a stopped run is at best incomplete
			}
			unwritten.verdict = result
			return unwritten
		}
		return err
	}
	return result
}

func (a *app) collectCmd() *cobra.Command {
	var inv, out, shard string
	cmd := &cobra.Command{
		Use:   "collect -i INVENTORY -o SNAPSHOT.json[.gz] [--shard K/N]",
		Short: "Collect only: normalized facts plus the raw transcript of every command",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out == "" {
				return usagef("collect needs -o SNAPSHOT.json")
			}
			// Refuse a snapshot that cannot be written before anything is collected.
			target, err := outfile.Resolve(out)
			if err == nil {
				err = target.Check()
			}
			if err != nil {
				return usagef("-o: %w", err)
			}
			var part shardFlag
			if shard != "" {
				if part, err = parseShard(shard); err != nil {
					return err
				}
			}
			in, err := a.loadInventory(inv)
			if err != nil {
				return err
			}
			if err := refuseOverwritingInputs([]output{{"-o " + out, target}}, inventoryInputs(in)); err != nil {
				return err
			}
			var sh *topology.Shard
			if shard != "" {
				in, sh = part.apply(in)
			}
			// Transcripts and facts wait on disk, not in memory, until the snapshot is
			// written: memory holds the devices being collected, not the fabric.
			if a.spool, err = topology.NewTranscriptSpool(""); err != nil {
				return err
			}
			defer a.spool.Close()
			facts, err := topology.NewFactSpool("")
			if err != nil {
				return err
			}
			defer facts.Close()
			snap, err := a.collectTo(cmd.Context(), in, facts)
			if err != nil {
				return err
			}
			snap.Shard = sh
			if err := writeSnapshot(out, snap, facts, a.spool); err != nil {
				return fmt.Errorf("writing snapshot: %w", err)
			}
			reach := 0
			for _, d := range snap.Devices {
				if d.Reachable {
					reach++
				}
			}
			if !a.quiet {
				fmt.Fprintf(a.stderr, "snapshot %s: %d devices, %d reachable\n", out, len(snap.Devices), reach)
			}
			if reach < len(snap.Devices) {
				// The snapshot is written either way; a partial one is not a success.
				return auditResult{incomplete: true}
			}
			return nil
		},
	}
	inventoryFlag(cmd, &inv)
	cmd.Flags().StringVarP(&out, "output", "o", "", "snapshot file to write (gzip-compressed when it ends in .gz)")
	cmd.Flags().StringVar(&shard, "shard", "", "collect only one part of the devices: `K/N` is shard K (0 to N-1) of N, devices split by a hash of their name; check the shards together with 'roceaudit check SNAP...'")
	return cmd
}

func (a *app) checkCmd() *cobra.Command {
	var paths []string
	cmd := &cobra.Command{
		Use:   "check SNAPSHOT.json[.gz]... [--path FROM,TO]...",
		Short: "Check and report offline from snapshots (no SSH)",
		Long: "Runs the checks on a snapshot written by `roceaudit collect`, exactly as audit would " +
			"have: the inventory's paths: (kept in the snapshot) add path checks, --path narrows the " +
			"check to the hops of its paths. Several snapshots (the shards of `collect --shard`) are " +
			"merged first, so links and paths between them are checked too; their recipes must agree.",
		Args: minArgs(1, "a snapshot file"),
		RunE: func(_ *cobra.Command, args []string) error {
			opts, failOn, err := a.checkOptions()
			if err != nil {
				return err
			}
			snaps := make([]input, 0, len(args))
			for _, p := range args {
				snaps = append(snaps, input{"the snapshot", p})
			}
			if err := refuseOverwritingInputs(a.reportOutputs(), snaps); err != nil {
				return err
			}
			specs, err := parsePathFlags(paths)
			if err != nil {
				return err
			}
			snap, err := readSnapshots(args, a.warn)
			if err != nil {
				return err
			}
			// As audit does against the inventory: a typo is a usage error, not a path that
			// does not resolve.
			if err := checkEndpoints(snapshotInventory(snap), specs, "--path %s,%s"); err != nil {
				return err
			}
			opts.Restrict = len(specs) > 0
			if len(specs) == 0 {
				for _, p := range snap.Paths {
					specs = append(specs, checks.PathSpec{From: p[0], To: p[1]})
				}
			}
			opts.Paths = specs
			return a.checkAndReport(snap, opts, failOn)
		},
	}
	cmd.Flags().StringArrayVar(&paths, "path", nil, "check only the hops of the paths between FROM,TO; repeatable")
	return cmd
}

func noArgs(_ *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usagef("unexpected argument %q", args[0])
	}
	return nil
}

func minArgs(n int, what string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) < n {
			return usagef("expected %s, got %d argument(s)", what, len(args))
		}
		return nil
	}
}

func exactArgs(n int, what string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) != n {
			return usagef("expected %s, got %d argument(s)", what, len(args))
		}
		return nil
	}
}
