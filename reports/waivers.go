package reports

import "github.com/roceaudit/roceaudit/waivers"

// WaiverUse is what a waiver file did in this run. Its presence is what makes the people
// formats show a waived count at all: without a waiver file nothing can be waived.
type WaiverUse struct {
	File    string           `json:"file"`
	Applied int              `json:"applied"`
	Expired []waivers.Waiver `json:"expired"` // past their date: no longer applied
	Unused  []waivers.Waiver `json:"unused"`  // live but matched nothing
}

// waiverText is one waiver as the people formats list it.
func waiverText(w waivers.Waiver) string {
	s := "check " + orAny(w.Check) + ", device " + orAny(w.Device) + ", interface " + orAny(w.Interface) +
		" until " + w.Expires + ": " + w.Reason
	if w.Owner != "" {
		s += " (owner " + w.Owner + ")"
	}
	return s
}

func orAny(p string) string {
	if p == "" {
		return "*"
	}
	return p
}
