package lab

import (
	"fmt"
	"slices"
	"strings"

	"github.com/roceaudit/roceaudit/lab/sshd"
)

// ParseFaults reads NAME=MODE,... (e.g. "gpu03=refuse,leaf2=stall").
func ParseFaults(s string) (map[string]sshd.Fault, error) {
	out := map[string]sshd.Fault{}
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		name, mode, ok := strings.Cut(item, "=")
		if !ok || name == "" {
			return nil, fmt.Errorf("fault %q: expected NAME=MODE, e.g. gpu03=refuse", item)
		}
		f, err := sshd.ParseFault(mode)
		if err != nil {
			return nil, fmt.Errorf("fault %q: %w", item, err)
		}
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("fault %q: %s already has a fault", item, name)
		}
		out[name] = f
	}
	return out, nil
}

// checkFaults refuses a fault for a device the lab does not have.
func checkFaults(devs []*device, faults map[string]sshd.Fault) error {
	for name := range faults {
		if !slices.ContainsFunc(devs, func(d *device) bool { return d.name == name }) {
			return fmt.Errorf("lab: --faults names %s, which this lab has no device called", name)
		}
	}
	return nil
}
