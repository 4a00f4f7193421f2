package linux

import (
	"fmt"
	"path"
	"strconv"
	"strings"
	"sync"

	"github.com/roceaudit/roceaudit/collectors"
)

// isHwCounterPath matches the path of a `grep -H` line over hw_counters,
// /sys/class/infiniband/DEV/ports/N/hw_counters/NAME, by hand: as a regexp it was most of
// the cost of reading a port's counters.
func isHwCounterPath(p string) bool {
	rest, ok := strings.CutPrefix(p, "/sys/class/infiniband/")
	dev, rest, ok2 := strings.Cut(rest, "/")
	rest, ok3 := strings.CutPrefix(rest, "ports/")
	port, name, ok4 := strings.Cut(rest, "/hw_counters/")
	return ok && ok2 && ok3 && ok4 && dev != "" && port != "" && strings.Trim(port, "0123456789") == "" &&
		name != "" && !strings.ContainsAny(name, "/:")
}

// ParseEthtoolStats reads `ethtool -S IF`: a `NIC statistics:` header, then `name: value`
// rows. Names are trimmed (one old mlx5 name carried a trailing space).
func ParseEthtoolStats(text string) (map[string]int64, error) {
	m, _, err := parseEthtoolStats(text, 0, nil)
	return m, err
}

// parseEthtoolStats is ParseEthtoolStats with room for extra more entries (the hw counters
// collectCounters adds: growing the map for them was 14% of an 8-rail host's allocation),
// keeping only the counters keep names (every one if keep is nil); rows is how many it read.
// Every row is read all the same: a malformed one fails the output whatever its counter.
func parseEthtoolStats(text string, extra int, keep func(string) bool) (_ map[string]int64, rows int, _ error) {
	var out map[string]int64
	if keep == nil { // sized once: a ConnectX prints hundreds of counters, which grew the map many times
		out = make(map[string]int64, strings.Count(text, "\n")+extra)
	} else {
		out = map[string]int64{}
	}
	header := false
	n := -1
	for raw := range strings.SplitSeq(text, "\n") {
		n++
		line := strings.TrimSpace(raw)
		if line == "" {
			continue
		}
		if !header {
			if !strings.HasSuffix(line, "statistics:") {
				return nil, 0, fmt.Errorf("ethtool -S line %d %s: expected the `NIC statistics:` header", n+1, collectors.QuoteLine(line))
			}
			header = true
			continue
		}
		i := strings.LastIndex(line, ":")
		if i <= 0 {
			return nil, 0, fmt.Errorf("ethtool -S line %d %s: expected `name: value`", n+1, collectors.QuoteLine(line))
		}
		v, err := strconv.ParseInt(strings.TrimSpace(line[i+1:]), 10, 64)
		if err != nil {
			return nil, 0, fmt.Errorf("ethtool -S line %d %s: value is not an integer", n+1, collectors.QuoteLine(line))
		}
		rows++
		if name := strings.TrimSpace(line[:i]); keep == nil || keep(name) {
			out[name] = v
		}
	}
	if !header {
		return nil, 0, fmt.Errorf("ethtool -S: empty output (expected `NIC statistics:` and counters)")
	}
	return out, rows, nil
}

// ParseHwCounters reads `grep -s -H .` over /sys/class/infiniband/DEV/ports/PORT/hw_counters/*
// keyed by file name. `lifespan` is the counters' cache time in ms, not a counter: skipped.
func ParseHwCounters(grepText string) (map[string]int64, error) {
	cs, err := parseHwCounters(grepText)
	if err != nil {
		return nil, err
	}
	out := make(map[string]int64, len(cs))
	for _, c := range cs {
		out[c.name] = c.v
	}
	return out, nil
}

// hwCounter is one hw_counters file read, in output order.
type hwCounter struct {
	name string
	v    int64
}

// parseHwCounters is ParseHwCounters as the rows read (a later repeat of a name wins, as in
// the map), so collectCounters adds them to its map without building another one.
func parseHwCounters(grepText string) ([]hwCounter, error) {
	out := make([]hwCounter, 0, strings.Count(grepText, "\n")+1)
	n := -1
	for line := range strings.SplitSeq(grepText, "\n") {
		n++
		if strings.TrimSpace(line) == "" {
			continue
		}
		p, val, ok := strings.Cut(line, ":")
		if !ok || !isHwCounterPath(p) {
			return nil, fmt.Errorf("hw_counters line %d %s: expected /sys/class/infiniband/DEV/ports/N/hw_counters/NAME:VALUE", n+1, collectors.QuoteLine(line))
		}
		v, err := strconv.ParseInt(strings.TrimSpace(val), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("hw_counters line %d: value %q is not an integer", n+1, val)
		}
		if name := path.Base(p); name != "lifespan" {
			out = append(out, hwCounter{name, v})
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("hw_counters: no counter lines (expected PATH:VALUE per counter file)")
	}
	return out, nil
}

// rdmaNames caches "rdma_"+name for the hw counter names (a few dozen, alike on every port),
// so merging a port's hw counters allocates no key; bounded, past which names are built.
var rdmaNames = struct {
	sync.Mutex
	m map[string]string
}{m: map[string]string{}}

const rdmaNamesMax = 1024

func rdmaName(name string) string {
	rdmaNames.Lock()
	defer rdmaNames.Unlock()
	if s, ok := rdmaNames.m[name]; ok {
		return s
	}
	s := "rdma_" + name
	if len(rdmaNames.m) < rdmaNamesMax {
		rdmaNames.m[strings.Clone(name)] = s
	}
	return s
}
