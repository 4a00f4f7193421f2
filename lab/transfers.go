package lab

import (
	"fmt"
	"time"

	"github.com/roceaudit/roceaudit/lab/linuxhost"
	"github.com/roceaudit/roceaudit/lab/rdmaemu"
	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// newTransfers makes the scenario's hosts answer perftest (lab/rdmaemu) over the fabric's
// cables (those the switch devices own, see device.cables), hosts and switches: one emulator
// per lab, so transfers see every device's state and move its counters. timeScale 0 is rdmaemu's default. The emulated timeouts get four
// request round trips of lab latency on top of rdmaemu's setup grace: the auditor starts a
// server, checks its port and starts the client, each a round trip the scale does not shrink.
func newTransfers(devs []*device, timeScale float64, latency time.Duration) (*rdmaemu.Emulator, error) {
	var hosts []*linuxhost.Host
	var switches []*switchstate.Switch
	present := map[string]bool{}
	for _, d := range devs {
		present[d.name] = true
		if d.host != nil {
			hosts = append(hosts, d.host)
		}
		if d.sw != nil {
			switches = append(switches, d.sw)
		}
	}
	var cables []rdmaemu.Cable
	for _, d := range devs {
		for _, c := range d.cables {
			if present[c[0].device] && present[c[1].device] {
				cables = append(cables, rdmaemu.Cable{{Device: c[0].device, Port: c[0].port}, {Device: c[1].device, Port: c[1].port}})
			}
		}
	}
	e, err := rdmaemu.New(rdmaemu.Config{Hosts: hosts, Switches: switches, Cables: cables, TimeScale: timeScale,
		SetupGrace: rdmaemu.DefaultSetupGrace + 4*latency})
	if err != nil {
		return nil, fmt.Errorf("lab: transfers: %w", err)
	}
	e.Attach()
	return e, nil
}

// RunningPerftest lists the emulated perftest processes still running on the lab's hosts
// (servers waiting or serving, clients transferring); empty when none, e.g. once every
// transfer finished or its SSH channel closed.
func (l *Lab) RunningPerftest() []string {
	if l.transfers == nil {
		return nil
	}
	return l.transfers.Running()
}
