package main

import (
	"time"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/reports"
	"github.com/roceaudit/roceaudit/waivers"
)

// loadWaivers reads --waivers before anything is collected: a malformed file is a usage
// error (exit 2) naming file:line and what was expected.
func (a *app) loadWaivers() error {
	a.waiverList = nil
	if a.waiversFile == "" {
		return nil
	}
	ws, err := waivers.Load(a.waiversFile)
	if err != nil {
		return usageError{err}
	}
	a.waiverList = ws
	return nil
}

// applyWaivers waives the results live waivers match and records, for the report, what the
// file did; without --waivers it returns the results untouched and no waiver section.
func (a *app) applyWaivers(results []checks.Result) ([]checks.Result, *reports.WaiverUse) {
	if a.waiversFile == "" {
		return results, nil
	}
	out := waivers.Apply(a.waiverList, results, time.Now())
	use := &reports.WaiverUse{File: a.waiversFile, Applied: out.Applied, Expired: out.Expired, Unused: out.Unused}
	if use.Expired == nil {
		use.Expired = []waivers.Waiver{}
	}
	if use.Unused == nil {
		use.Unused = []waivers.Waiver{}
	}
	return out.Results, use
}
