// Package reports renders audit results for people (text, HTML, Markdown) and machines (JSON,
// JUnit, Prometheus). Every renderer reads the same Report.
package reports

import (
	"time"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// Schema names the JSON report format; scripts key on it.
const Schema = "roceaudit/report/v1"

// Report is the whole outcome of one audit.
type Report struct {
	Schema      string    `json:"schema"`
	ToolVersion string    `json:"tool_version"`
	Started     time.Time `json:"started"`
	Finished    time.Time `json:"finished"`
	Simulated   bool      `json:"simulated,omitempty"`
	Note        string    `json:"note,omitempty"` // e.g. that the lab is a simulation
	// Interrupted says why the run stopped before its end (Ctrl-C, the deadline): the report
	// is partial.
	Interrupted string          `json:"interrupted,omitempty"`
	Recipe      recipe.Recipe   `json:"recipe"`
	Devices     []DeviceSummary `json:"devices"`
	Paths       []Path          `json:"paths"`
	Transfers   []Transfer      `json:"transfers"`
	Results     []checks.Result `json:"results"`
	// Ports are the collected settings of every port a result names.
	Ports []PortFacts `json:"ports,omitempty"`
	// Causes group the results by the fact that explains them, biggest first. Renderers derive
	// them from Results and Paths; a value set here is not trusted.
	Causes []checks.Cause `json:"causes"`
	// Waivers is set when a waiver file was in use: which entries expired or matched nothing.
	Waivers *WaiverUse            `json:"waivers,omitempty"`
	Summary map[checks.Status]int `json:"summary"`

	// scanned is what FromSnapshot read of Results, for the summaries renderers derive from
	// them again (a pass over the million results of 10,000 devices is ~50 ms); it is used
	// only while Results is still the slice it read, which nothing changes in place.
	scanned *scannedResults
}

type scannedResults struct {
	of   []checks.Result
	scan *resultScan
}

// resultScan is the scan of r.Results: FromSnapshot's while the slice is the one it read.
func (r *Report) resultScan() *resultScan {
	if s := r.scanned; s != nil && len(s.of) == len(r.Results) && (len(s.of) == 0 || &s.of[0] == &r.Results[0]) {
		return s.scan
	}
	return scanResults(r.Results)
}

// DeviceSummary is a device as the report lists it.
type DeviceSummary struct {
	Name      string        `json:"name"`
	Platform  string        `json:"platform"`
	Role      topology.Role `json:"role"`
	Reachable bool          `json:"reachable"`
	Error     string        `json:"error,omitempty"`
}

// Path is the resolved equal-cost paths between two endpoints.
type Path struct {
	From  string  `json:"from"`
	To    string  `json:"to"`
	Paths [][]Hop `json:"paths"`
}

// Hop is one device on a path with its in- and out-port.
type Hop struct {
	Device  string `json:"device"`
	InPort  string `json:"in_port,omitempty"`
	OutPort string `json:"out_port,omitempty"`
}

// Transfer is one test RDMA transfer and the counters that moved on its path.
type Transfer struct {
	From          string         `json:"from"`
	To            string         `json:"to"`
	GIDIndex      map[string]int `json:"gid_index"`
	BandwidthGbps float64        `json:"bandwidth_gbps"`
	LinkGbps      float64        `json:"link_gbps"`
	SlowestLink   string         `json:"slowest_link,omitempty"` // the port whose speed is link_gbps
	// Error says why the transfer did not run or complete; its bandwidth then means nothing.
	Error     string        `json:"error,omitempty"`
	LatencyUS *Latency      `json:"latency_us,omitempty"`
	Hops      []HopCounters `json:"hops"`
	// FlowLabel is the perftest --flow_label of the run (0: none); Member the equal-cost
	// member its counters show it took ("path 2 via spine1"); Coverage, on a pair's first
	// transfer, which members carried a test.
	FlowLabel int       `json:"flow_label,omitempty"`
	Member    string    `json:"member,omitempty"`
	Coverage  *Coverage `json:"coverage,omitempty"`
}

// Coverage is which equal-cost members of a transfer's path set carried a test.
type Coverage struct {
	AllPaths bool             `json:"all_paths"`
	Attempts []int            `json:"attempt_flow_labels"`
	Members  []CoverageMember `json:"members"`
	Bound    string           `json:"bound,omitempty"`
	Error    string           `json:"error,omitempty"`
}

// CoverageMember is one equal-cost member.
type CoverageMember struct {
	Path    int      `json:"path"`
	Via     string   `json:"via"`
	Ports   []string `json:"ports"`
	Carried bool     `json:"carried"`
}

// Label is the transfer's server end and, when known, the member it took: "b (path 2 via spine1)".
func (x Transfer) Label() string {
	if x.Member == "" {
		return x.To
	}
	return x.To + " (" + x.Member + ")"
}

// Latency of an ib_write_lat run.
type Latency struct {
	Typical float64 `json:"typical"`
	P99     float64 `json:"p99"`
}

// HopCounters are the counter deltas of one interface during a transfer.
type HopCounters struct {
	Device        string           `json:"device"`
	Interface     string           `json:"interface"`
	CounterDeltas map[string]int64 `json:"counter_deltas"`
}

// Summarize counts results per status; every status is present so scripts can rely on keys.
func Summarize(results []checks.Result) map[checks.Status]int {
	out := map[checks.Status]int{}
	for _, s := range checks.Statuses {
		out[s] = 0
	}
	// Counted by position, not by map key: a million results at 10,000 devices.
	counts := make([]int, len(checks.Statuses))
	for _, r := range results {
		if i := statusRank(r.Status); i < len(counts) {
			counts[i]++
		} else {
			out[r.Status]++
		}
	}
	for i, s := range checks.Statuses {
		out[s] += counts[i]
	}
	return out
}
