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

// switchEmulators render a switch state as each platform's CLI. An interactive CLI gets the
// lab latency itself (sshd only delays exec requests).
var switchEmulators = map[string]func(sw *switchstate.Switch, latency time.Duration) sshd.Device{
	"sonic":   func(sw *switchstate.Switch, _ time.Duration) sshd.Device { return sonic.New(sw) },
	"cumulus": func(sw *switchstate.Switch, _ time.Duration) sshd.Device { return cumulus.New(sw) },
	"eos": func(sw *switchstate.Switch, latency time.Duration) sshd.Device {
		s := eos.New(sw)
		s.Latency = latency
		return s
	},
	"nxos": func(sw *switchstate.Switch, latency time.Duration) sshd.Device {
		s := nxos.New(sw)
		s.Latency = latency
		return s
	},
}

// switchDevices turns the fabric's switch states into lab devices, in fabric order. Switches
// of a platform without an emulator are left out (their cables then end nowhere).
func switchDevices(states map[string]*switchstate.Switch, latency time.Duration) []*device {
	var out []*device
	for _, s := range fabricSwitches {
		emu, ok := switchEmulators[s.platform]
		if !ok {
			continue
		}
		sw := states[s.name]
		out = append(out, &device{name: s.name, platform: s.platform, dev: emu(sw, latency), sw: sw})
	}
	return out
}
