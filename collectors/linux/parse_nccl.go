package linux

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseNCCLConf reads /etc/nccl.conf for NCCL_IB_GID_INDEX. Like NCCL itself, it skips '#'
// comments and lines without '='; the last assignment wins.
func ParseNCCLConf(text string) (index int, set bool, err error) {
	for n, raw := range strings.Split(text, "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		if !ok || strings.TrimSpace(key) != "NCCL_IB_GID_INDEX" {
			continue
		}
		val = strings.Trim(strings.TrimSpace(val), `"'`)
		v, err := strconv.Atoi(val)
		if err != nil || v < 0 || v > 255 {
			return 0, false, fmt.Errorf("nccl.conf line %d: NCCL_IB_GID_INDEX=%q is not a GID index 0..255", n+1, val)
		}
		index, set = v, true
	}
	return index, set, nil
}
