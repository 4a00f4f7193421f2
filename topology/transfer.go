package topology

import "strings"

// Transfer is one test RDMA transfer (perftest) between two host ports and what it showed:
// the result, and the counters that moved on every port of every equal-cost path.
type Transfer struct {
	From Endpoint `json:"from"` // the client
	To   Endpoint `json:"to"`   // the server
	Test string   `json:"test"` // "write_bw"
	// GIDIndex is the RoCE v2 index used at each end ("from", "to").
	GIDIndex map[string]int `json:"gid_index,omitempty"`
	// Ran is true when perftest ran to completion; Error says why it did not (or failed).
	Ran       bool   `json:"ran"`
	Error     string `json:"error,omitempty"`
	ErrorKind string `json:"error_kind,omitempty"` // perftest failure kind: not installed, transport, ...

	ServerCommand string `json:"server_command,omitempty"`
	ClientCommand string `json:"client_command,omitempty"`
	Output        string `json:"output,omitempty"` // the client's output, verbatim

	BandwidthGbps float64 `json:"bandwidth_gbps"`
	LinkGbps      float64 `json:"link_gbps"` // the slowest known port speed on the path
	// SlowestLink is the port LinkGbps is the speed of ("leaf1:Ethernet0"): of the two host
	// ports and every switch port of every equal-cost path, the first slowest.
	SlowestLink string   `json:"slowest_link,omitempty"`
	LatencyUS   *Latency `json:"latency_us,omitempty"`

	Paths [][]Hop `json:"paths,omitempty"`
	// Hops are the counter deltas of every sampled port during the transfer.
	Hops []HopCounters `json:"hops,omitempty"`
	// CounterError says why counters could not be compared (a device unreachable, ...).
	CounterError string `json:"counter_error,omitempty"`
	// UnsampledPorts are path ports whose counters could not be compared: loss there would go
	// unseen, so XFER-RETRANS cannot pass while any is listed.
	UnsampledPorts []string `json:"unsampled_ports,omitempty"`
	// FlowLabel is the GRH flow label the client's QP was given (perftest --flow_label); 0 is
	// none (the NIC derived one from the QP numbers).
	FlowLabel int `json:"flow_label,omitempty"`
	// Member names the equal-cost member the traffic counters show carried the transfer
	// ("path 2 via spine1"); empty when it could not be told.
	Member string `json:"member,omitempty"`
	// Coverage is which members of the path set carried a test, on the first transfer of a
	// pair (the others, one per newly reached member under --all-paths, leave it nil).
	Coverage *Coverage `json:"coverage,omitempty"`
	// ServerLeftover says the perftest server was still running after it was stopped, and
	// what bounds it; empty when it was confirmed gone (or could not be checked).
	ServerLeftover string `json:"server_leftover,omitempty"`
}

// Latency is an ib_write_lat result in microseconds.
type Latency struct {
	Typical float64 `json:"typical"`
	P99     float64 `json:"p99"`
}

// HopCounters are the counter deltas of one port during a transfer.
type HopCounters struct {
	Device        string           `json:"device"`
	Role          Role             `json:"role,omitempty"`
	Interface     string           `json:"interface"`
	CounterDeltas map[string]int64 `json:"counter_deltas"`
}

// lossWords mark counters whose rise means packets were lost or retransmitted.
var lossWords = []string{"drop", "discard", "out_of_sequence", "seq_err", "retrans", "ack_timeout", "duplicate_request", "retries_exceeded"}

// IsLossCounter says whether a counter rising means packets were lost or retransmitted. The
// transfer keeps such counters even when they did not move, and XFER-RETRANS reads them.
func IsLossCounter(name string) bool {
	n := strings.ToLower(name)
	for _, w := range lossWords {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}
