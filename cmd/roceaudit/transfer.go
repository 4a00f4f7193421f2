package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/collectors/transfer"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/reports"
	"github.com/roceaudit/roceaudit/topology"
)

// transferFlags are the test transfer's knobs.
type transferFlags struct {
	enabled  bool
	latency  bool
	allPaths bool
	duration time.Duration
}

func (f *transferFlags) register(cmd *cobra.Command, withSwitch bool) {
	if withSwitch {
		cmd.Flags().BoolVar(&f.enabled, "transfer", false, "also run a test RDMA transfer (perftest) on every path")
	}
	cmd.Flags().BoolVar(&f.latency, "latency", false, "also measure latency (ib_write_lat)")
	cmd.Flags().DurationVar(&f.duration, "duration", 5*time.Second, "length of each bandwidth test (1s..300s)")
	cmd.Flags().BoolVar(&f.allPaths, "all-paths", false, "step perftest's --flow_label until every equal-cost member carried a test "+
		"(at most 4 x members attempts, 64, within 10 minutes); XFER-BW/XFER-RETRANS are then judged per member")
}

func (f *transferFlags) check() error {
	if f.duration < time.Second || f.duration > 300*time.Second || f.duration%time.Second != 0 {
		return usagef("--duration %s: expected whole seconds between 1s and 300s", f.duration)
	}
	return nil
}

// runTransfers runs one transfer per endpoint pair and adds them to the snapshot.
func (a *app) runTransfers(ctx context.Context, in *inventory.Inventory, snap *topology.Snapshot, specs []checks.PathSpec, f *transferFlags) error {
	if len(specs) == 0 {
		return nil
	}
	r := &transfer.Runner{Inventory: in, Registry: a.reg, Dialer: a.dialer(), Options: transfer.Options{
		Duration: f.duration, Latency: f.latency, AllPaths: f.allPaths, TrafficClass: snap.Recipe.RoCEToS[len(snap.Recipe.RoCEToS)-1],
	}}
	defer r.Close()
	for _, s := range specs {
		from, err := topology.ResolveEndpoint(snap, s.From)
		if err == nil {
			var to topology.Endpoint
			if to, err = topology.ResolveEndpoint(snap, s.To); err == nil {
				if !a.quiet {
					fmt.Fprintf(a.stderr, "transfer %s -> %s ...\n", from, to)
				}
				snap.Transfers = append(snap.Transfers, r.RunPair(ctx, snap, from, to)...)
				if err := ctx.Err(); err != nil {
					return err
				}
				continue
			}
		}
		snap.Transfers = append(snap.Transfers, topology.Transfer{From: topology.Endpoint{Device: s.From},
			To: topology.Endpoint{Device: s.To}, Error: "cannot start: " + err.Error(), ErrorKind: "setup"})
	}
	return nil
}

// transferredPaths are the endpoint pairs the transfers really ran between: an endpoint named
// by its host alone runs on the port the transfer picked, and the report's paths must be that
// port's, not every port of the host. A pair that never started keeps what the user typed.
func transferredPaths(xs []topology.Transfer, typed []checks.PathSpec) []checks.PathSpec {
	var out []checks.PathSpec
	for _, x := range xs {
		if x.From.Interface == "" || x.To.Interface == "" {
			continue
		}
		p := checks.PathSpec{From: x.From.String(), To: x.To.String()}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return typed
	}
	return out
}

// reportTransfers converts the snapshot's transfers for the report.
func reportTransfers(xs []topology.Transfer) []reports.Transfer {
	out := []reports.Transfer{}
	for _, x := range xs {
		t := reports.Transfer{From: x.From.String(), To: x.To.String(), GIDIndex: x.GIDIndex,
			BandwidthGbps: x.BandwidthGbps, LinkGbps: x.LinkGbps, SlowestLink: x.SlowestLink, Error: x.Error, Hops: []reports.HopCounters{}}
		if x.LatencyUS != nil {
			t.LatencyUS = &reports.Latency{Typical: x.LatencyUS.Typical, P99: x.LatencyUS.P99}
		}
		t.FlowLabel, t.Member, t.Coverage = x.FlowLabel, x.Member, reportCoverage(x.Coverage)
		for _, h := range x.Hops {
			t.Hops = append(t.Hops, reports.HopCounters{Device: h.Device, Interface: h.Interface, CounterDeltas: h.CounterDeltas})
		}
		out = append(out, t)
	}
	return out
}

// reportCoverage converts a pair's coverage for the report.
func reportCoverage(c *topology.Coverage) *reports.Coverage {
	if c == nil {
		return nil
	}
	out := &reports.Coverage{AllPaths: c.AllPaths, Bound: c.Bound, Error: c.Error, Attempts: []int{}, Members: []reports.CoverageMember{}}
	for _, a := range c.Attempts {
		out.Attempts = append(out.Attempts, a.FlowLabel)
	}
	for _, m := range c.Members {
		out.Members = append(out.Members, reports.CoverageMember{Path: m.Path, Via: m.Via, Ports: m.Ports, Carried: m.Carried})
	}
	return out
}

// transferOnly is the checks `transfer` runs: the catalog's transfer-scope checks, narrowed to
// the user's --only when it names any (--skip is applied by the engine as usual). An --only
// that names no transfer check is a usage error, not a run of everything.
func transferOnly(only []string) ([]string, error) {
	var ids []string
	for _, c := range checks.Catalog() {
		if c.Scope != checks.ScopeTransfer {
			continue
		}
		if len(only) == 0 || slices.ContainsFunc(only, func(id string) bool { return strings.EqualFold(id, c.ID) }) {
			ids = append(ids, c.ID)
		}
	}
	if len(ids) == 0 {
		return nil, usageError{fmt.Errorf("--only %s names no transfer check", strings.Join(only, ","))}
	}
	return ids, nil
}

func (a *app) transferCmd() *cobra.Command {
	var inv string
	f := &transferFlags{}
	cmd := &cobra.Command{
		Use:   "transfer -i INVENTORY FROM TO",
		Short: "Run only the test RDMA transfer, with counter deltas per hop",
		Long: "Collects the fabric, runs ib_write_bw from FROM (client) to TO (server) with the RoCE v2 " +
			"GID index of each end and the recipe's traffic class, and reports bandwidth against the " +
			"slowest link and every loss counter that rose on any port of any equal-cost path. The " +
			"perftest server is always stopped, also on failure, timeout and Ctrl-C.",
		Args: exactArgs(2, "two endpoints"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.check(); err != nil {
				return err
			}
			opts, failOn, err := a.checkOptions()
			if err != nil {
				return err
			}
			if opts.Only, err = transferOnly(opts.Only); err != nil {
				return err
			}
			in, err := a.loadInventory(inv)
			if err != nil {
				return err
			}
			if err := checkEndpoints(in, []checks.PathSpec{{From: args[0], To: args[1]}}, "%s %s"); err != nil {
				return err
			}
			snap, err := a.collect(cmd.Context(), in)
			if err != nil {
				return err
			}
			specs := []checks.PathSpec{{From: args[0], To: args[1]}}
			if err := a.runTransfers(cmd.Context(), in, snap, specs, f); err != nil {
				return err
			}
			// Like audit --path, the checks look only at the transfers' paths: an unreachable
			// host elsewhere is no reason for a good path to exit 3 (transfer checks alone, the
			// report lists the devices of the paths).
			opts.Paths, opts.Restrict = transferredPaths(snap.Transfers, specs), true
			return a.checkAndReport(snap, opts, failOn)
		},
	}
	inventoryFlag(cmd, &inv)
	f.register(cmd, false)
	return cmd
}
