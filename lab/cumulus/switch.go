// Package cumulus emulates an NVIDIA Cumulus Linux 5.x switch (NVUE) for the built-in lab.
// Cumulus is a Linux shell: the switch answers SSH exec requests for the `nv show` paths of
// NVUE's object model it knows (see nvShow), each rendered from a switchstate.Switch in NVUE's text layout (CumulusNetworks/docs and the verbatim outputs under
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
// A path outside NVUE's model gets an NVUE error; `nv set`, `nv unset`, `nv config` and the
// real paths the lab does not render say so (exit 1): the lab never changes state from the
// CLI. Any other program answers as bash does for a missing command. A per-port path for a
// port the switch does not have answers NVUE's missing-item error (the wording is not verified
// against a device). sudo runs what follows it.
//
// State counters read (absent reads 0):
// pg<N>_rx_frames, pg<N>_rx_discard_bytes, pg<N>_rx_shared_discard_bytes,
// queue<N>_tx_packets, queue<N>_tx_bytes, queue<N>_drop_bytes, queue<N>_wred_drops,
// pfc_rx_pause_prio<N>, pfc_tx_pause_prio<N>, pfc_rx_pause_duration_prio<N>,
// pfc_tx_pause_duration_prio<N>, ecn_marked_packets_tx, mc_buffer_discards_tx; the port's
// pause frames come from the shared rx_pause / tx_pause. NVUE humanises byte counts
// ("1.43 MB"), so large byte counters read back approximately.
package cumulus

import (
	"context"
	"sync"

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

// ItemMissing is NVUE's answer for an object that does not exist (not verified on a device).
const ItemMissing = "Error: The requested item does not exist.\n"

// Switch serves one emulated Cumulus switch. It implements sshd.Device.
type Switch struct {
	State *switchstate.Switch
	whole wholeSwitch
}

// New serves sw. The state may change later through sw.Update; every answer reads it afresh.
func New(sw *switchstate.Switch) *Switch { return &Switch{State: sw} }

// Exec answers one command line as the switch's login shell would: bash splits it, sudo runs
// what follows it, and NVUE's `nv` reads its own arguments.
func (s *Switch) Exec(_ context.Context, cmd string) (stdout, stderr string, exit int) {
	return loginshell.Exec(cmd, "nv", s.nv)
}

// wholeSwitch is what a per-port answer needs from every port: the regime (Regime compares
// each port with RoCE mode's profile) and the port by name. Deciding it per command cost
// ports² per collection (a 256-port leaf: 256 ports x 12 commands x 256 ports), so it is
// kept until the state's generation moves (or the Switch is pointed at another state).
type wholeSwitch struct {
	mu    sync.Mutex
	state *switchstate.Switch // nil until first asked
	gen   uint64
	roce  bool
	ports map[string]*switchstate.Port
}

// of is sw's regime and port index; call it inside sw.Read.
func (w *wholeSwitch) of(sw *switchstate.Switch) (roce bool, ports map[string]*switchstate.Port) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.state != sw || w.gen != sw.Generation() {
		w.roce, _ = Regime(sw)
		w.ports = make(map[string]*switchstate.Port, len(sw.Ports))
		for _, p := range sw.Ports {
			if _, dup := w.ports[p.Name]; !dup { // sw.Port finds the first
				w.ports[p.Name] = p
			}
		}
		w.state, w.gen = sw, sw.Generation()
	}
	return w.roce, w.ports
}
