package sonic

import (
	"fmt"
	"strconv"
	"strings"
)

// PortCounters are the counters of each port, by normalized name.
type PortCounters map[string]map[string]int64

func (pc PortCounters) set(port, name string, v int64) {
	if pc[port] == nil {
		pc[port] = map[string]int64{}
	}
	pc[port][name] = v
}

// counterValue reads a tabulate counter cell: thousands separators allowed, "N/A" is absent.
func counterValue(cell string) (int64, bool, error) {
	cell = strings.TrimSpace(cell)
	if cell == "" || strings.EqualFold(cell, "N/A") {
		return 0, false, nil
	}
	v, err := strconv.ParseInt(strings.ReplaceAll(cell, ",", ""), 10, 64)
	if err != nil || v < 0 {
		return 0, false, fmt.Errorf("%q is not a counter value", cell)
	}
	return v, true, nil
}
