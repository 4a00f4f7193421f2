package perftest

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// BWRow is one line of a bandwidth table, converted to Gb/s.
type BWRow struct {
	Bytes       uint64
	SL          int // the #sl column (perftest's QoS variant); -1 when the table has none
	Iterations  uint64
	PeakGbps    float64 // 0.00 in duration mode (-D): perftest does not measure the peak there
	AvgGbps     float64
	MsgRateMpps float64
}

// BWResult is a parsed ib_*_bw run.
type BWResult struct {
	Device   string // "Device : mlx5_0"
	GIDIndex int    // "GID index : 3"; -1 when perftest did not print it (no -x and not RoCE)
	MTU      int    // "Mtu : 1024[B]": the path MTU the QPs use, not the netdev MTU
	LinkType string // "Ethernet" for RoCE, "IB" for InfiniBand
	RDMACM   bool   // "rdma_cm QPs : ON"
	Unit     string // the table's unit as printed: "Gb/sec", "MB/sec" or "MiB/sec"
	Rows     []BWRow
	// The summary is the last row: the only row of a single-size run, the largest message
	// size of an -a sweep.
	PeakGbps, AvgGbps float64
	MsgRateMpps       float64
}

// mibPerSecToGbps converts perftest's MB/sec and MiB/sec (both are MiB/s, 2^20 bytes; the
// label was fixed in perftest commit 1d202bb) to Gb/s (10^9 bits).
const mibPerSecToGbps = 1048576 * 8 / 1e9

var (
	bwHeaderRe = regexp.MustCompile(`^\s*#bytes\s+(#sl\s+)?#iterations\s+BW peak\[(Gb/sec|MB/sec|MiB/sec)\]\s+BW average\[(Gb/sec|MB/sec|MiB/sec)\]\s+MsgRate\[Mpps\](.*)$`)
	dashRe     = regexp.MustCompile(`^\s*-{20,}\s*$`)
	deviceRe   = regexp.MustCompile(`\bDevice\s*:\s*(\S+)`)
	gidIndexRe = regexp.MustCompile(`^\s*GID index\s*:\s*(\d+)\s*$`)
	mtuRe      = regexp.MustCompile(`^\s*Mtu\s*:\s*(\d+)\[B\]`)
	linkTypeRe = regexp.MustCompile(`^\s*Link type\s*:\s*(\S+)`)
	rdmaCMRe   = regexp.MustCompile(`^\s*rdma_cm QPs\s*:\s*(ON|OFF)\b`)
)

// ParseBW reads the stdout of ib_write_bw (or any ib_*_bw): the test header lines and the
// result table in any of its variants — Gb/sec (--report_gbits), MB/sec or MiB/sec (both
// converted to Gb/s), an #sl column, per-port columns (only the totals are kept), a CPU_Util
// column, TABs in rows, warnings or elisions between rows, several rows of an -a sweep.
func ParseBW(text string) (BWResult, error) {
	res := BWResult{GIDIndex: -1}
	var tbl *bwTable
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		if m := bwHeaderRe.FindStringSubmatch(line); m != nil {
			tbl = newBWTable(m)
			if res.Unit == "" {
				res.Unit = m[3]
			}
			continue
		}
		if tbl != nil {
			if dashRe.MatchString(line) {
				tbl = nil
				continue
			}
			// Lines that are not rows (warnings, "...") are skipped, not fatal.
			if row, ok := tbl.row(line); ok {
				res.Rows = append(res.Rows, row)
			}
			continue
		}
		parseBWInfoLine(line, &res)
	}
	if res.Unit == "" {
		return res, errors.New("perftest: no bandwidth table (`#bytes #iterations BW peak[...]`) in the output")
	}
	if len(res.Rows) == 0 {
		return res, errors.New("perftest: the bandwidth table has no result row")
	}
	last := res.Rows[len(res.Rows)-1]
	res.PeakGbps, res.AvgGbps, res.MsgRateMpps = last.PeakGbps, last.AvgGbps, last.MsgRateMpps
	return res, nil
}

// parseBWInfoLine picks the test parameters perftest prints above the table.
func parseBWInfoLine(line string, res *BWResult) {
	if m := deviceRe.FindStringSubmatch(line); m != nil && strings.Contains(line, "Dual-port") {
		res.Device = m[1]
	} else if m := gidIndexRe.FindStringSubmatch(line); m != nil {
		res.GIDIndex, _ = strconv.Atoi(m[1])
	} else if m := mtuRe.FindStringSubmatch(line); m != nil {
		res.MTU, _ = strconv.Atoi(m[1])
	} else if m := linkTypeRe.FindStringSubmatch(line); m != nil {
		res.LinkType = m[1]
	} else if m := rdmaCMRe.FindStringSubmatch(line); m != nil {
		res.RDMACM = m[1] == "ON"
	}
}

// bwTable knows the column layout announced by one header line.
type bwTable struct {
	hasSL       bool
	cols        int     // numeric fields per row
	peakF, avgF float64 // unit factors to Gb/s
}

func newBWTable(m []string) *bwTable {
	t := &bwTable{hasSL: m[1] != "", cols: 5, peakF: unitFactor(m[2]), avgF: unitFactor(m[3])}
	rest := m[4]
	if strings.Contains(rest, "BW Port1[") { // RESULT_FMT_*_PER_PORT: BW and MsgRate per port
		t.cols += 4
	}
	if strings.Contains(rest, "CPU_Util") {
		t.cols++
	}
	if t.hasSL {
		t.cols++
	}
	return t
}

func unitFactor(unit string) float64 {
	if unit == "Gb/sec" {
		return 1
	}
	return mibPerSecToGbps
}

// row parses one result line; ok is false for anything that is not exactly one row.
func (t *bwTable) row(line string) (BWRow, bool) {
	f := strings.Fields(line)
	if len(f) != t.cols {
		return BWRow{}, false
	}
	r := BWRow{SL: -1}
	var err error
	if r.Bytes, err = strconv.ParseUint(f[0], 10, 64); err != nil {
		return BWRow{}, false
	}
	f = f[1:]
	if t.hasSL {
		sl, err := strconv.ParseUint(f[0], 10, 8)
		if err != nil {
			return BWRow{}, false
		}
		r.SL, f = int(sl), f[1:]
	}
	if r.Iterations, err = strconv.ParseUint(f[0], 10, 64); err != nil {
		return BWRow{}, false
	}
	var v [3]float64
	for i := range v {
		if v[i], err = parseRate(f[1+i]); err != nil {
			return BWRow{}, false
		}
	}
	r.PeakGbps, r.AvgGbps, r.MsgRateMpps = v[0]*t.peakF, v[1]*t.avgF, v[2]
	return r, true
}

// parseRate accepts a plain non-negative decimal as printed by %lf; "-nan", "inf" and
// exponents are not perftest results.
func parseRate(s string) (float64, error) {
	if s == "" || strings.ContainsAny(s, "eEnNiIxX+-_") {
		return 0, fmt.Errorf("not a rate: %q", s)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, fmt.Errorf("not a rate: %q", s)
	}
	return v, nil
}
