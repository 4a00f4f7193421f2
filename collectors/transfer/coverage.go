package transfer

import (
	"context"
	"fmt"
	"time"

	"github.com/roceaudit/roceaudit/collectors/perftest"
	"github.com/roceaudit/roceaudit/topology"
)

// Defaults of the --all-paths bounds.
const (
	attemptsPerMember = 4
	maxAttempts       = 64
	defaultBudget     = 10 * time.Minute
)

// RunPair runs the transfer from (client) to (server) and tells which equal-cost members
// carried it. With Options.AllPaths it steps the flow label 1, 2, ... (each a distinct RoCE v2
// UDP source port, so a distinct 5-tuple for the switches' ECMP hash) until every member
// carried one, or the attempt or time bound is reached. The first transfer carries the
// coverage; each further one is the attempt that first reached a member, so the transfer
// checks judge every member on its own.
func (r *Runner) RunPair(ctx context.Context, snap *topology.Snapshot, from, to topology.Endpoint) []topology.Transfer {
	if !r.Options.AllPaths {
		x := r.Run(ctx, snap, from, to)
		cov := coverageOf(&x, false)
		if cov != nil {
			r.record(cov, &x)
		}
		return []topology.Transfer{x}
	}
	start := time.Now()
	x := r.runLabel(ctx, snap, from, to, 1)
	cov := coverageOf(&x, true)
	if cov == nil {
		return []topology.Transfer{x}
	}
	out := []topology.Transfer{x}
	r.record(cov, &out[0])
	budget := r.Options.Budget
	if budget <= 0 {
		budget = defaultBudget
	}
	limit := r.Options.MaxAttempts
	if limit <= 0 {
		limit = min(attemptsPerMember*len(cov.Members), maxAttempts)
	}
	limit = min(limit, perftest.MaxFlowLabel)
	last := x
	for label := 2; len(cov.Missing()) > 0 && cov.Error == ""; label++ {
		switch {
		case !last.Ran && last.ErrorKind != KindTransport:
			// Another label cannot help a run that did not start (no perftest, no GID, ...).
			cov.Bound = fmt.Sprintf("%d attempts: the transfer could not run (%s)", label-1, last.ErrorKind)
		case label > limit:
			cov.Bound = fmt.Sprintf("%d attempts (flow labels 1-%d)", limit, limit)
		case time.Since(start) > budget:
			cov.Bound = fmt.Sprintf("time budget %s after %d attempts", budget, label-1)
		case ctx.Err() != nil:
			cov.Bound = "interrupted after " + fmt.Sprint(label-1) + " attempts"
		}
		if cov.Bound != "" {
			break
		}
		y := r.runLabel(ctx, snap, from, to, label)
		last = y
		if newly := r.record(cov, &y); newly {
			out = append(out, y)
		}
	}
	out[0].Coverage = cov
	return out
}

// coverageOf starts the coverage of a pair from its first transfer's path set; nil when the
// transfer found no path (it did not start).
func coverageOf(x *topology.Transfer, allPaths bool) *topology.Coverage {
	if len(x.Paths) == 0 {
		return nil
	}
	c := topology.NewCoverage(x.Paths, allPaths)
	x.Coverage = c
	return c
}

// record attributes one attempt and reports whether it reached a member no earlier one did;
// the transfer is named after the first member it carried.
func (r *Runner) record(c *topology.Coverage, x *topology.Transfer) bool {
	before := len(c.Missing())
	a := topology.CoverageAttempt{FlowLabel: x.FlowLabel, Ran: x.Ran, Error: x.Error}
	members, err := c.Attribute(x.Paths, *x) // its own path set: the coverage's while the fabric holds
	switch {
	case err != nil && x.CounterError != "":
		c.Error = err.Error() + " (" + x.CounterError + ")"
	case err != nil:
		c.Error = err.Error()
	}
	a.Members = members
	c.Attempts = append(c.Attempts, a)
	if len(members) > 0 {
		x.Member = c.Members[members[0]].Name()
	}
	return len(c.Missing()) < before
}
