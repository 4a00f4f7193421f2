// Package cumulus emulates an NVIDIA Cumulus Linux 5.x switch (NVUE) for the built-in lab.
// Cumulus is a Linux shell: the switch answers SSH exec requests with the `nv show` outputs of
// the Cumulus collector's commands (collectors/cumulus), each rendered from a
// switchstate.Switch in NVUE's text layout (switches.md §2.2 and the verbatim outputs under
// fixtures/cumulus/verbatim).
//
// The switch runs one of the two regimes the collector reads (see Regime): RoCE mode (`nv set
// qos roce mode lossless`, what a healthy lab switch is) when every port is what that profile
// applies, otherwise the generic per-port QoS profiles with RoCE disabled, which express
// each port on its own (trust l2, another DSCP map, PFC on other priorities, other strict
// queues). Port-level settings that both regimes read the same way (MTU, link pause, PFC
// watchdog, counters, LLDP) never change the regime. Every per-port command answers in
// either regime, from the port's effective settings.
//
// Anything else on the command line answers as bash does for a missing command, `nv set`,
// `nv unset` and `nv config` included: the lab never changes state from the CLI. A per-port
// command for a port the switch does not have answers NVUE's missing-item error (the wording
// is not verified against a device). A leading "sudo -n " is accepted.
//
// State counters read (absent reads 0), named as the collector reports them:
// pg<N>_rx_frames, pg<N>_rx_discard_bytes, pg<N>_rx_shared_discard_bytes,
// queue<N>_tx_packets, queue<N>_tx_bytes, queue<N>_drop_bytes, queue<N>_wred_drops,
// pfc_rx_pause_prio<N>, pfc_tx_pause_prio<N>, pfc_rx_pause_duration_prio<N>,
// pfc_tx_pause_duration_prio<N>, ecn_marked_packets_tx, mc_buffer_discards_tx; the port's
// pause frames come from the shared rx_pause / tx_pause. NVUE humanises byte counts
// ("1.43 MB"), so large byte counters read back approximately.
package cumulus

import (
	"context"
	"sort"
	"strings"

	cumuluscol "github.com/roceaudit/roceaudit/collectors/cumulus"
	"github.com/roceaudit/roceaudit/lab/loginshell"
	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// Defaults for a state that leaves them empty, and the healthy port MTU.
const (
	DefaultModel   = "MSN3700"
	DefaultVersion = "5.9.1"
	// MTU is the 9216-class jumbo MTU as Cumulus configures it (link mtu, a frame MTU).
	MTU = 9216
)

// itemMissing is NVUE's answer for an object that does not exist (not verified on a device).
const itemMissing = "Error: The requested item does not exist.\n"

// Switch serves one emulated Cumulus switch. It implements sshd.Device.
type Switch struct {
	State *switchstate.Switch
}

// New serves sw. The state may change later (under its lock); every answer reads it afresh.
func New(sw *switchstate.Switch) *Switch { return &Switch{State: sw} }

// global are the switch-wide commands.
var global = map[string]func(sw *switchstate.Switch) string{
	cumuluscol.CmdSystem:        showSystem,
	cumuluscol.CmdInterfaceLLDP: showInterfaceLLDP,
	cumuluscol.CmdRoCE:          showQoSRoCE,
}

// perPort are the per-port commands by their words after the port name.
var perPort = map[string]func(p *switchstate.Port, roce bool) (string, string, int){
	"link":                     ok(showLink),
	"qos roce status":          showRoCEStatus,
	"qos mapping":              ok(showMapping),
	"qos egress-queue-mapping": ok(showEgressQueueMapping),
	"qos egress-scheduler":     ok(showEgressScheduler),
	"qos congestion-control":   ok(showCongestionControl),
	"qos pfc":                  ok(showPFC),
	"qos link-pause":           ok(showLinkPause),
	"qos pfc-watchdog":         ok(showPFCWatchdog),
	"counters qos":             ok(showCountersQoS),
}

func ok(f func(p *switchstate.Port, roce bool) string) func(p *switchstate.Port, roce bool) (string, string, int) {
	return func(p *switchstate.Port, roce bool) (string, string, int) { return f(p, roce), "", 0 }
}

// Commands lists the command lines the emulator answers with state, per-port ones as the
// collector's templates ({if} for the port).
func Commands() []string {
	var out []string
	for c := range global {
		out = append(out, c)
	}
	for suffix := range perPort {
		out = append(out, "nv show interface {if} "+suffix)
	}
	sort.Strings(out)
	return out
}

// Exec answers one command line as the switch's login shell would. Blanks between words do not
// matter; a leading "sudo -n " is accepted.
func (s *Switch) Exec(_ context.Context, cmd string) (stdout, stderr string, exit int) {
	argv, sudo := loginshell.Split(cmd)
	if len(argv) == 0 {
		return "", "", 0
	}
	if render, found := global[strings.Join(argv, " ")]; found {
		s.State.Read(func(sw *switchstate.Switch) { stdout = render(sw) })
		return stdout, "", 0
	}
	if len(argv) < 5 || strings.Join(argv[:3], " ") != "nv show interface" {
		return loginshell.NotFound(argv[0], sudo)
	}
	render, found := perPort[strings.Join(argv[4:], " ")]
	if !found {
		return loginshell.NotFound(argv[0], sudo)
	}
	s.State.Read(func(sw *switchstate.Switch) {
		p := sw.Port(argv[3])
		if p == nil {
			stdout, stderr, exit = "", itemMissing, 1
			return
		}
		roce, _ := Regime(sw)
		stdout, stderr, exit = render(p, roce)
	})
	return stdout, stderr, exit
}
