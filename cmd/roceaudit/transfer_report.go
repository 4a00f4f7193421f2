package main

import (
	"strings"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/reports"
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
