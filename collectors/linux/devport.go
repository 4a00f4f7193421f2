package linux

import (
	"fmt"
	"strconv"
	"strings"
)

// DevPort names one port of one RDMA device, e.g. mlx5_0 port 1.
type DevPort struct {
	Dev  string
	Port int
}

func (d DevPort) String() string { return d.Dev + "/" + strconv.Itoa(d.Port) }

// parseDevPort reads "mlx5_0/1".
func parseDevPort(s string) (DevPort, error) {
	i := strings.LastIndexByte(s, '/')
	if i <= 0 {
		return DevPort{}, fmt.Errorf("%q: expected DEV/PORT", s)
	}
	port, err := strconv.Atoi(s[i+1:])
	if err != nil || port < 1 || port > 255 {
		return DevPort{}, fmt.Errorf("%q: expected DEV/PORT with a port number 1..255", s)
	}
	return DevPort{Dev: s[:i], Port: port}, nil
}
