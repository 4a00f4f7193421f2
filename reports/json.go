package reports

import (
	"encoding/json"
	"fmt"
	"io"
)

// jsonRenderer writes roceaudit/report/v1.
type jsonRenderer struct{}

func (jsonRenderer) Render(w io.Writer, r *Report, _ Options) error {
	if r == nil {
		return errNilReport
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	// Evidence and paths carry "->" and "<"; \u003e would make the report harder to read and
	// buys nothing outside HTML.
	enc.SetEscapeHTML(false)
	if err := enc.Encode(normalized(r)); err != nil {
		return fmt.Errorf("write JSON report: %w", err)
	}
	return nil
}

// normalized is a copy of r as the JSON schema promises it: schema set, results in machine
// order, summary counted from the results with a key for every status, and empty arrays and
// objects instead of null so scripts can iterate without checks.
func normalized(r *Report) Report {
	out := *r
	if out.Schema == "" {
		out.Schema = Schema
	}
	out.Results = sortedResults(r.Results)
	out.Summary = reportSummary(r)
	out.Causes = reportCauses(r)
	out.Devices = nonNil(r.Devices)
	out.Paths = make([]Path, len(r.Paths))
	for i, p := range r.Paths {
		p.Paths = nonNil(p.Paths)
		hops := make([][]Hop, len(p.Paths))
		for j, h := range p.Paths {
			hops[j] = nonNil(h)
		}
		p.Paths = hops
		out.Paths[i] = p
	}
	out.Transfers = make([]Transfer, len(r.Transfers))
	for i, x := range r.Transfers {
		if x.GIDIndex == nil {
			x.GIDIndex = map[string]int{}
		}
		hops := make([]HopCounters, len(x.Hops))
		for j, h := range x.Hops {
			if h.CounterDeltas == nil {
				h.CounterDeltas = map[string]int64{}
			}
			hops[j] = h
		}
		x.Hops = hops
		out.Transfers[i] = x
	}
	return out
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
