package perftest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// JSONReport is what perftest writes with --out_json --out_json_file=FILE. The commands of this
// package do not ask for it (perftest 4.5 predates --out_json, and reading it back needs a file
// on the host); ParseJSON is here for callers that collect the file another way.
//
// Shape from perftest src/perftest_parameters.c (write_test_info_to_file, write_bw_report_to_file,
// write_report_lat_to_file): {"test_info": {...}, "results": {...}}; result key names from
// perftest's --out_json help. Not verified against a file from a real run.
type JSONReport struct {
	Test     string // test_info.test, e.g. "RDMA_Write_BW_Test"
	Device   string
	MTU      int
	LinkType string
	GIDIndex int // -1 when absent
	RDMACM   bool

	MsgSize    uint64
	Iterations uint64
	// Bandwidth results are in the unit of the run — Gb/s with --report_gbits, MiB/s without;
	// the file does not say which. Zero for latency tests.
	BWPeak, BWAverage, MsgRateMpps float64
	// Lat is set for latency tests (results with t_typical).
	Lat *LatResult
}

type jsonTestInfo struct {
	Test     string `json:"test"`
	Device   string `json:"Device"`
	MTU      int    `json:"Mtu"`
	LinkType string `json:"Link_type"`
	GIDIndex *int   `json:"GID_index"`
	RDMACM   string `json:"rdma_cm_QPs"`
}

// ParseJSON reads a perftest --out_json file of a bandwidth or a latency test.
func ParseJSON(data []byte) (JSONReport, error) {
	var doc struct {
		TestInfo *jsonTestInfo              `json:"test_info"`
		Results  map[string]json.RawMessage `json:"results"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		return JSONReport{}, fmt.Errorf("perftest json: %w", err)
	}
	if doc.TestInfo == nil || doc.Results == nil {
		return JSONReport{}, errors.New(`perftest json: want "test_info" and "results" objects`)
	}
	ti := doc.TestInfo
	r := JSONReport{Test: ti.Test, Device: ti.Device, MTU: ti.MTU, LinkType: ti.LinkType, GIDIndex: -1, RDMACM: ti.RDMACM == "ON"}
	if ti.GIDIndex != nil {
		r.GIDIndex = *ti.GIDIndex
	}
	res := jsonNumbers(doc.Results)
	r.MsgSize, r.Iterations = uint64(res.get("MsgSize")), uint64(res.get("n_iterations"))
	switch {
	case res.has("BW_average"):
		r.BWPeak, r.BWAverage, r.MsgRateMpps = res.get("BW_peak"), res.get("BW_average"), res.get("MsgRate")
	case res.has("t_typical"):
		r.Lat = &LatResult{
			MinUS: res.get("t_min"), MaxUS: res.get("t_max"), TypicalUS: res.get("t_typical"),
			AvgUS: res.get("t_avg"), StdevUS: res.get("t_stdev"),
			P99US: res.get("percentile_99"), P999US: res.get("percentile_99.9"),
			Bytes: r.MsgSize, Iterations: r.Iterations,
		}
	default:
		return r, errors.New(`perftest json: "results" has neither BW_average nor t_typical (a --output=... run?)`)
	}
	if res.err != nil {
		return r, fmt.Errorf("perftest json: %w", res.err)
	}
	return r, nil
}

// numbers reads the numeric members of "results", remembering the first bad or missing one.
type numbers struct {
	raw map[string]json.RawMessage
	err error
}

func jsonNumbers(raw map[string]json.RawMessage) *numbers { return &numbers{raw: raw} }

func (n *numbers) has(key string) bool { _, ok := n.raw[key]; return ok }

func (n *numbers) get(key string) float64 {
	v, ok := n.raw[key]
	if !ok {
		if n.err == nil {
			n.err = fmt.Errorf("results.%s is missing", key)
		}
		return 0
	}
	f, err := strconv.ParseFloat(string(bytes.TrimSpace(v)), 64)
	if err != nil || f < 0 {
		if n.err == nil {
			n.err = fmt.Errorf("results.%s = %s is not a non-negative number", key, v)
		}
		return 0
	}
	return f
}
