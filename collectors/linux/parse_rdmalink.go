package linux

import (
	"fmt"
	"strings"

	"github.com/roceaudit/roceaudit/collectors"
)

// ParseRdmaLink reads `rdma link show` into RDMA port -> netdev ("" for a port without one,
// such as an InfiniBand port). Both layouts are accepted:
//
//	link mlx5_0/1 state ACTIVE physical_state LINK_UP netdev ens1f0np0
//	3/1: mlx5_1/1: state ACTIVE physical_state LINK_UP netdev ens803f1   (iproute2 ~4.16)
func ParseRdmaLink(text string) (map[DevPort]string, error) {
	out := map[DevPort]string{}
	for n, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		var name string
		var rest []string
		switch {
		case f[0] == "link" && len(f) >= 2:
			name, rest = f[1], f[2:]
		case strings.HasSuffix(f[0], ":") && len(f) >= 2 && strings.HasSuffix(f[1], ":"):
			name, rest = strings.TrimSuffix(f[1], ":"), f[2:]
		default:
			return nil, fmt.Errorf("rdma link line %d %s: expected `link DEV/PORT ...` or `IDX/PORT: DEV/PORT: ...`", n+1, collectors.QuoteLine(line))
		}
		dp, err := parseDevPort(name)
		if err != nil {
			return nil, fmt.Errorf("rdma link line %d: %w", n+1, err)
		}
		netdev := ""
		for i := 0; i+1 < len(rest); i++ {
			if rest[i] == "netdev" {
				netdev = rest[i+1]
				break
			}
		}
		out[dp] = netdev
	}
	return out, nil
}
