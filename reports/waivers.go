package reports

import (
	"slices"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/waivers"
)

// WaiverUse is what a waiver file did in this run. Its presence is what makes the people
// formats show a waived count at all: without a waiver file nothing can be waived.
type WaiverUse struct {
	File    string           `json:"file"`
	Applied int              `json:"applied"`
	Expired []waivers.Waiver `json:"expired"` // past their date: no longer applied
	Unused  []waivers.Waiver `json:"unused"`  // live but matched nothing
}

// reportStatuses is the statuses a report counts: waived only when a waiver file was in use,
// since without one nothing can be waived and a count that always reads 0 says nothing.
func reportStatuses(r *Report) []checks.Status {
	if r.Waivers != nil {
		return checks.Statuses
	}
	return slices.DeleteFunc(slices.Clone(checks.Statuses), func(s checks.Status) bool { return s == checks.Waived })
}

// reportSummary is the results per status, with a key for every status the report counts.
func reportSummary(r *Report) map[checks.Status]int {
	all := Summarize(r.Results)
	out := make(map[checks.Status]int, len(all))
	for _, s := range reportStatuses(r) {
		out[s] = all[s]
	}
	return out
}

// waiverText is one waiver as the people formats list it.
func waiverText(w waivers.Waiver) string {
	s := "check " + orAny(w.Check) + ", device " + orAny(w.Device) + ", interface " + orAny(w.Interface) +
		" until " + w.Expires + ": " + w.Reason
	if w.Owner != "" {
		s += " (owner " + w.Owner + ")"
	}
	if why := w.UnusedWhy(); why != "" {
		s += "; " + why
	}
	return s
}

func orAny(p string) string {
	if p == "" {
		return "*"
	}
	return p
}
