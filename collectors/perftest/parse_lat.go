package perftest

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
)

// LatResult is a parsed ib_*_lat run in iteration mode, in microseconds. perftest's latency is
// half the measured round trip (write_lat/send_lat); typical is the median.
type LatResult struct {
	TypicalUS, P99US, AvgUS, MinUS, MaxUS float64
	StdevUS, P999US                       float64
	Bytes, Iterations                     uint64
}

var (
	// RESULT_FMT_LAT, the 9-column table of iteration mode (optionally a CPU_Util column).
	latHeaderRe = regexp.MustCompile(`^\s*#bytes\s+#iterations\s+t_min\[usec\]\s+t_max\[usec\]\s+t_typical\[usec\]\s+t_avg\[usec\]\s+t_stdev\[usec\]\s+99% percentile\[usec\]\s+99\.9% percentile\[usec\](.*)$`)
	// RESULT_FMT_LAT_DUR (duration mode) and the pre-2018 5-column table have no percentiles.
	latOtherRe = regexp.MustCompile(`^\s*#bytes\s+#iterations\s+(t_avg\[usec\]|t_min\[usec\]\s+t_max\[usec\]\s+t_typical\[usec\]\s*$)`)
	latCycles  = regexp.MustCompile(`^\s*#bytes\s+#iterations\s+t_min\[cycles\]`)
)

// ParseLat reads the stdout of ib_write_lat (or any ib_*_lat) run with -n: the table
//
//	#bytes #iterations t_min t_max t_typical t_avg t_stdev 99% 99.9%   (all [usec])
//
// Other latency tables (duration mode, cycles, the old 5-column one) are errors that say so.
func ParseLat(text string) (LatResult, error) {
	cols, seen := 0, false
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		if m := latHeaderRe.FindStringSubmatch(line); m != nil {
			cols, seen = 9, true
			if strings.Contains(m[1], "CPU_Util") {
				cols++
			}
			continue
		}
		switch {
		case latOtherRe.MatchString(line):
			return LatResult{}, errors.New("perftest: latency table without typical latency and percentiles (duration mode -D, or a perftest older than 2018); run ib_write_lat with -n")
		case latCycles.MatchString(line):
			return LatResult{}, errors.New("perftest: latency table in CPU cycles (-C); run without it")
		}
		if cols == 0 {
			continue
		}
		if dashRe.MatchString(line) {
			cols = 0
			continue
		}
		if r, ok := latRow(line, cols); ok {
			return r, nil
		}
	}
	if !seen {
		return LatResult{}, errors.New("perftest: no latency table (`#bytes #iterations t_min[usec] ...`) in the output")
	}
	return LatResult{}, errors.New("perftest: the latency table has no result row")
}

func latRow(line string, cols int) (LatResult, bool) {
	f := strings.Fields(line)
	if len(f) != cols {
		return LatResult{}, false
	}
	var r LatResult
	var err error
	if r.Bytes, err = strconv.ParseUint(f[0], 10, 64); err != nil {
		return LatResult{}, false
	}
	if r.Iterations, err = strconv.ParseUint(f[1], 10, 64); err != nil {
		return LatResult{}, false
	}
	dst := []*float64{&r.MinUS, &r.MaxUS, &r.TypicalUS, &r.AvgUS, &r.StdevUS, &r.P99US, &r.P999US}
	for i, p := range dst {
		if *p, err = parseRate(f[2+i]); err != nil {
			return LatResult{}, false
		}
	}
	return r, true
}
