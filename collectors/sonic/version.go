package sonic

import (
	"fmt"
	"strings"

	"github.com/roceaudit/roceaudit/collectors/internal/texttable"
)

// ParseVersion reads `show version` ("SONiC Software Version: SONiC.HEAD.32-21ea29a",
// "HwSKU: Mellanox-SN2700") into a NOS string: "SONiC.HEAD.32-21ea29a (HwSKU Mellanox-SN2700)".
func ParseVersion(out string) (string, error) {
	var version, sku string
	for _, l := range texttable.SplitLines(out) {
		k, v, ok := strings.Cut(strings.TrimSpace(l), ":")
		if !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "SONiC Software Version":
			version = strings.TrimSpace(v)
		case "HwSKU":
			sku = strings.TrimSpace(v)
		}
	}
	if version == "" {
		return "", fmt.Errorf("%s: no \"SONiC Software Version:\" line in the output", CmdVersion)
	}
	if sku != "" {
		return fmt.Sprintf("%s (HwSKU %s)", version, sku), nil
	}
	return version, nil
}
