// Package sonic emulates a community SONiC switch for the built-in lab. SONiC is a Linux
// shell whose `show` is a click program: the switch answers SSH exec requests for these
// commands (abbreviable as sonic-utilities allows), each rendered from a switchstate.Switch in
// the format SONiC prints it:
//
//	show runningconfiguration all   CONFIG_DB as `sonic-cfggen -d --print-data` prints it
//	show lldp table                 lldpshow's tabulate table
//	show pfc counters               pfcstat's Rx and Tx tables
//	show queue counters             queuestat's per-port tables (UC0..UC7)
//	show version                    the version block
//
// A scenario changes a field of the state and every answer that shows it changes with it.
// The state is rendered as an operator would configure SONiC for RoCE: one DSCP_TO_TC_MAP
// ("ROCE", the recipe's map) shared by every port that uses it and a map of its own for a port
// that differs ("AZURE" when it is SONiC's stock map), PFC per port in PORT_QOS_MAP, the PFC
// watchdog in PFC_WD and pfcwd_sw_enable, ECN as a WRED profile bound to the queue, STRICT or
// DWRR schedulers bound per queue, and lossless or lossy buffer profiles per priority group.
// Validate names what SONiC cannot show as it is in the state.
//
// A `show` path SONiC does not have gets click's usage error (exit 2); a real one the lab does
// not render says so (exit 1). Any other program answers as bash does for a missing command,
// configuration writes (`config ...`, `sonic-db-cli ... HSET`) included: the lab never changes
// state from the CLI. sudo runs what follows it.
//
// State counters read (absent reads 0): pfc_rx_pause_prio<N>, pfc_tx_pause_prio<N>,
// queue<N>_tx_packets, queue<N>_tx_bytes, queue<N>_drops, queue<N>_drop_bytes.
package sonic

import (
	"context"

	"github.com/roceaudit/roceaudit/lab/loginshell"
	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// Defaults for a state that leaves them empty, and the healthy port MTU.
const (
	DefaultModel   = "Mellanox-SN4600C"
	DefaultVersion = "SONiC.202405"
	// MTU is the 9216-class jumbo MTU as SONiC configures it (PORT|<p>.mtu, 68..9216).
	MTU = 9216
)

// Switch serves one emulated SONiC switch. It implements sshd.Device.
type Switch struct {
	State *switchstate.Switch
}

// New serves sw. The state may change later (under its lock); every answer reads it afresh.
func New(sw *switchstate.Switch) *Switch { return &Switch{State: sw} }

// Exec answers one command line as the switch's login shell would: bash splits it, sudo runs
// what follows it, and SONiC's `show` reads its own arguments.
func (s *Switch) Exec(_ context.Context, cmd string) (stdout, stderr string, exit int) {
	return loginshell.Exec(cmd, "show", func(argv []string) (string, string, int) {
		c, stdout, stderr, exit := resolve(argv[1:])
		if c == nil {
			return stdout, stderr, exit
		}
		s.State.Read(func(sw *switchstate.Switch) { stdout = c.render(sw) })
		return stdout, "", 0
	})
}
