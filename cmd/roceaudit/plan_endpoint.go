package main

import (
	"github.com/roceaudit/roceaudit/collectors/sshclient"
	"github.com/roceaudit/roceaudit/inventory"
)

// planEndpoint is where plan says a device is reached: the inventory's settings with
// ~/.ssh/config applied exactly as the SSH transport applies them, so the user and port
// shown are the ones really used. A config that cannot be read falls back to the inventory.
func planEndpoint(spec inventory.DeviceSpec) (user string, port int, via []string) {
	target, jumps, err := sshclient.Effective(sshclient.ConfigFor(spec, nil, false))
	if err != nil {
		return spec.Conn.User, spec.Conn.Port, nil
	}
	for _, j := range jumps {
		via = append(via, j.String())
	}
	return target.User, target.Port, via
}
