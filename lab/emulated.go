package lab

import (
	"github.com/roceaudit/roceaudit/lab/linuxhost"
	"github.com/roceaudit/roceaudit/lab/rdmaemu"
	"github.com/roceaudit/roceaudit/lab/sshd"
	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// Emulated is one device of a lab fabric as Start runs it, without its SSH server: what a test
// drives directly.
type Emulated struct {
	Name, Platform string
	Device         sshd.Device         // what answers the device's SSH requests
	Host           *linuxhost.Host     // nil for a switch
	Switch         *switchstate.Switch // nil for a host
}

// Emulate builds the devices Start would run for opts (Scenario or Generate; Dir and Latency
// are not used), with perftest emulated over the fabric's cables at timeScale (0: rdmaemu's
// default), in fabric order.
func Emulate(opts Options, timeScale float64) ([]Emulated, *rdmaemu.Emulator, error) {
	var devs []*device
	if opts.Generate != nil {
		devs = opts.Generate.build(0)
	} else {
		scenario := opts.Scenario
		if scenario == "" {
			scenario = ScenarioHealthy
		}
		var err error
		if devs, err = build(scenario, 0); err != nil {
			return nil, nil, err
		}
	}
	e, err := newTransfers(devs, timeScale, 0)
	if err != nil {
		return nil, nil, err
	}
	out := make([]Emulated, len(devs))
	for i, d := range devs {
		out[i] = Emulated{Name: d.name, Platform: d.platform, Device: d.dev, Host: d.host, Switch: d.sw}
	}
	return out, e, nil
}

// Cables are the cables of the scenarios' fixed fabric, each as two "device:port" ends.
func Cables() [][2]string {
	var out [][2]string
	for _, c := range fixedFabric().cables {
		out = append(out, [2]string{c[0].device + ":" + c[0].port, c[1].device + ":" + c[1].port})
	}
	return out
}

// IsSwitch says whether a device of the fixed fabric is a switch.
func IsSwitch(name string) bool { return fixedFabric().isSwitch(name) }
