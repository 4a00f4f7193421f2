package main

import (
	"strings"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/reports"
	"github.com/roceaudit/roceaudit/topology"
)

// onlyTransferChecks reports whether every check asked for looks at transfers (the transfer
// command): the report then lists only the devices of the transfers.
func onlyTransferChecks(opts checks.Options) bool {
	if len(opts.Only) == 0 {
		return false
	}
	for _, id := range opts.Only {
		if c, ok := checks.Lookup(id); !ok || c.Scope != checks.ScopeTransfer {
			return false
		}
	}
	return true
}

// devicesOfTransfers keeps the devices on the transfers' paths, their endpoints (also of a
// transfer that never started) and those with results (an unreachable device is always
// reported).
func devicesOfTransfers(rep *reports.Report) []reports.DeviceSummary {
	keep := map[string]bool{}
	for _, r := range rep.Results {
		keep[r.Device] = true
	}
	endpoint := func(e string) { // host or host:netdev; an IP matches no device name
		name, _, _ := strings.Cut(e, ":")
		keep[name] = true
	}
	for _, p := range rep.Paths {
		endpoint(p.From)
		endpoint(p.To)
		for _, hops := range p.Paths {
			for _, h := range hops {
				keep[h.Device] = true
			}
		}
	}
	for _, x := range rep.Transfers {
		endpoint(x.From)
		endpoint(x.To)
		for _, h := range x.Hops {
			keep[h.Device] = true
		}
	}
	out := []reports.DeviceSummary{}
	for _, d := range rep.Devices {
		if keep[d.Name] {
			out = append(out, d)
		}
	}
	return out
}

// checkAndReportTransfers is checkAndReport for the transfer command: like audit --path, the
// checks look only at the devices of the transfers' paths (an unreachable host elsewhere in
// the inventory is no reason for a good path to exit 3), and the report lists those devices,
// switches on the path included even when no transfer result names them.
func (a *app) checkAndReportTransfers(snap *topology.Snapshot, opts checks.Options, failOn checks.Severity) error {
	opts.Restrict = true
	collectLessWhileChecking()
	results := checks.Run(snap, opts)
	results = append(results, unresolvedEndpointResults(snap, opts, results)...)
	results, waived := a.applyWaivers(results)
	rep := a.report(snap, results)
	rep.Waivers = waived
	rep.Paths = reportPaths(checks.ResolvePaths(snap, opts.Paths))
	rep.Transfers = reportTransfers(snap.Transfers)
	rep.Devices = devicesOfTransfers(rep)
	if err := a.emit(rep); err != nil {
		return err
	}
	return verdict(results, failOn)
}

// unresolvedEndpointResults are the device results (COLLECT-REACH, COLLECT-FACTS errors) of
// an endpoint host no path reaches: narrowed to the paths, the checks would not look at it,
// yet why it could not be collected is why its transfer did not run.
func unresolvedEndpointResults(snap *topology.Snapshot, opts checks.Options, have []checks.Result) []checks.Result {
	judged := map[string]bool{}
	for _, r := range have {
		judged[r.Device] = true
	}
	var ends []*topology.Device
	for _, p := range opts.Paths {
		for _, e := range []string{p.From, p.To} {
			name, _, _ := strings.Cut(e, ":") // an IP names no device: it is not cut to one
			for _, d := range snap.Devices {
				if d.Name == name && !judged[name] {
					judged[name] = true
					ends = append(ends, d)
				}
			}
		}
	}
	if len(ends) == 0 {
		return nil
	}
	// Only the device checks can judge a device alone; the engine reports their errors
	// whatever --only says, so an unreachable endpoint is never dropped.
	alone := &topology.Snapshot{Recipe: snap.Recipe, Devices: ends}
	return checks.Run(alone, checks.Options{Only: opts.Only, Skip: opts.Skip, Remedy: opts.Remedy})
}
