package cumulus

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// parseBool reads NVUE's booleans, which vary by command and release: on/off (CL <= 5.14),
// enabled/disabled (CL 5.15+, and `pfc rx-enabled` at switch level), enable/disable (qos
// profiles), yes/no (`qos roce status` per port), true/false.
func parseBool(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "on", "enabled", "enable", "yes", "true":
		return true, nil
	case "off", "disabled", "disable", "no", "false":
		return false, nil
	}
	return false, fmt.Errorf("%q is not on/off, enabled/disabled, enable/disable or yes/no", s)
}

// parseList reads "0,3", "3", "0-2,5" or "-" (none) into sorted numbers in [0, maxVal].
func parseList(s string, maxVal int) ([]int, error) {
	s = strings.TrimSpace(s)
	out := []int{}
	if s == "" || s == "-" {
		return out, nil
	}
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err := strconv.Atoi(lo)
		b := a
		if err == nil && isRange {
			b, err = strconv.Atoi(hi)
		}
		if err != nil || a < 0 || b < a || b > maxVal {
			return nil, fmt.Errorf("%q is not a list of numbers 0..%d", s, maxVal)
		}
		for v := a; v <= b; v++ {
			if !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	slices.Sort(out)
	return out, nil
}

// parseNumber reads a plain non-negative integer cell.
func parseNumber(s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	return n, nil
}

// byteUnits are the units NVUE's text output humanises byte counts with. The reference's own
// numbers (150000 B shown as 146.48 KB, 1500000 B as 1.43 MB) fix KB at 1024 bytes.
var byteUnits = map[string]float64{"B": 1, "Bytes": 1, "Byte": 1, "KB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30, "TB": 1 << 40}

// parseBytes reads "0 Bytes", "25000 B", "153.00 KB", "92824.38 GB" or a bare number into
// bytes. Humanised values are rounded, so they are approximate.
func parseBytes(s string) (int64, error) {
	f := strings.Fields(s)
	mult := 1.0
	switch len(f) {
	case 1:
	case 2:
		m, ok := byteUnits[f[1]]
		if !ok {
			return 0, fmt.Errorf("%q: unknown unit %q", s, f[1])
		}
		mult = m
	default:
		return 0, fmt.Errorf("%q is not a byte count", s)
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) || v*mult > math.MaxInt64/2 {
		return 0, fmt.Errorf("%q is not a byte count", s)
	}
	return int64(math.Round(v * mult)), nil
}

// NormalizeTrust maps NVUE trust settings to the model's words: the `qos mapping` profile says
// l2 / l3 / both / port, the RoCE profile says "pcp,dscp".
func NormalizeTrust(s string) (string, error) {
	switch strings.ToLower(strings.ReplaceAll(strings.TrimSpace(s), " ", "")) {
	case "l3", "dscp":
		return "dscp", nil
	case "l2", "pcp":
		return "pcp", nil
	case "both", "pcp,dscp", "dscp,pcp":
		return "both", nil
	case "port":
		return "none", nil
	}
	return "", fmt.Errorf("trust %q is not l2, l3, both, port or a pcp/dscp list", s)
}

// normalizeScheduler maps scheduler spellings to the model's words: "strict-priority" (switch
// level), "strict priority" (port level), "strict", "DWRR-50%", "dwrr-50%", "dwrr".
func normalizeScheduler(s string) (string, error) {
	l := strings.ToLower(strings.TrimSpace(s))
	switch {
	case strings.HasPrefix(l, "strict"):
		return "strict", nil
	case strings.HasPrefix(l, "dwrr"):
		return "dwrr", nil
	case strings.HasPrefix(l, "wrr"):
		return "wrr", nil
	case strings.HasPrefix(l, "ets"):
		return "ets", nil
	}
	return "", fmt.Errorf("scheduler %q is not strict, dwrr or wrr", s)
}
