package reports

import (
	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/topology"
)

// SimulationNote is printed in every report that comes from the built-in lab.
const SimulationNote = "emulated devices answering on 127.0.0.1"

// FromSnapshot assembles the report of a snapshot and its results.
func FromSnapshot(snap *topology.Snapshot, results []checks.Result) *Report {
	rep := &Report{
		Schema:    Schema,
		Started:   snap.Started,
		Finished:  snap.Finished,
		Simulated: snap.Simulated,
		Recipe:    snap.Recipe,
		Devices:   []DeviceSummary{},
		Paths:     []Path{},
		Transfers: []Transfer{},
		Results:   results,
	}
	scan := scanResults(results)
	rep.Ports, rep.Summary = portFacts(snap, scan.ports), scan.summary()
	if rep.Results == nil {
		rep.Results = []checks.Result{}
	}
	rep.scanned = &scannedResults{of: rep.Results, scan: scan}
	if snap.Simulated {
		rep.Note = SimulationNote
	}
	for _, d := range snap.Devices {
		rep.Devices = append(rep.Devices, DeviceSummary{Name: d.Name, Platform: d.Platform, Role: d.Role,
			Reachable: d.Reachable, Error: d.Error})
	}
	return rep
}
