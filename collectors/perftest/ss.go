package perftest

import (
	"fmt"
	"strconv"
	"strings"
)

// ParsePortInUse reads the stdout of FreePortCommand (ss exited 0). Empty output means no
// listener holds the port; each listener is one line such as
//
//	LISTEN 0      1      127.0.0.1:18515 0.0.0.0:*
//
// (iproute2 ss -H: state, Recv-Q, Send-Q, local, peer). Anything else — a header from an ss
// without -H, an error text — is an error, never "free": a wrong "free" makes perftest's
// server fail with "Couldn't listen to port".
func ParsePortInUse(text string) (bool, error) {
	inUse := false
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) != 5 || f[0] != "LISTEN" || !isUint(f[1]) || !isUint(f[2]) || !strings.Contains(f[3], ":") {
			return false, fmt.Errorf("ss: unexpected line %q (want `LISTEN Recv-Q Send-Q local peer`)", line)
		}
		inUse = true
	}
	return inUse, nil
}

func isUint(s string) bool {
	_, err := strconv.ParseUint(s, 10, 64)
	return err == nil
}
