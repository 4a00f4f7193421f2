package lab

import (
	"time"

	"github.com/roceaudit/roceaudit/lab/cumulus"
	"github.com/roceaudit/roceaudit/lab/eos"
	"github.com/roceaudit/roceaudit/lab/nxos"
	"github.com/roceaudit/roceaudit/lab/sonic"
	"github.com/roceaudit/roceaudit/lab/sshd"
	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// switchEmulators render a switch state as each platform's CLI. The lab latency is sshd's
// (it delays every flight of the connection, interactive answers included), so a CLI adds
// none of its own.
var switchEmulators = map[string]func(sw *switchstate.Switch, latency time.Duration) sshd.Device{
	"sonic":   func(sw *switchstate.Switch, _ time.Duration) sshd.Device { return sonic.New(sw) },
	"cumulus": func(sw *switchstate.Switch, _ time.Duration) sshd.Device { return cumulus.New(sw) },
	"eos":     func(sw *switchstate.Switch, _ time.Duration) sshd.Device { return eos.New(sw) },
	"nxos":    func(sw *switchstate.Switch, _ time.Duration) sshd.Device { return nxos.New(sw) },
}

// switchDevices turns a fabric's switch states into lab devices, in fabric order, each with
// the cables it owns (see device.cables). Switches of a platform without an emulator are left
// out (their cables then end nowhere).
func switchDevices(f fabric, states map[string]*switchstate.Switch, latency time.Duration) []*device {
	owned := map[string][][2]end{}
	for _, c := range f.cables {
		owner := c[0].device
		if !f.isSwitch(owner) {
			owner = c[1].device
		}
		owned[owner] = append(owned[owner], c)
	}
	var out []*device
	for _, s := range f.switches {
		emu, ok := switchEmulators[s.platform]
		if !ok {
			continue
		}
		sw := states[s.name]
		out = append(out, &device{name: s.name, platform: s.platform, dev: emu(sw, latency), sw: sw, cables: owned[s.name]})
	}
	return out
}
