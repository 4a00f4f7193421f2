// Package sonic emulates a community SONiC switch for the built-in lab. SONiC is a Linux
// shell: the switch answers SSH exec requests with the output of the SONiC collector's
// commands (collectors/sonic), each rendered from a switchstate.Switch in the format SONiC
// prints it:
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
// Anything else on the command line answers as bash does for a missing command, configuration
// writes (`config ...`, `sonic-db-cli ... HSET`) included: the lab never changes state from the
// CLI. A leading "sudo -n " is accepted.
//
// State counters read (absent reads 0): pfc_rx_pause_prio<N>, pfc_tx_pause_prio<N>,
// queue<N>_tx_packets, queue<N>_tx_bytes, queue<N>_drops, queue<N>_drop_bytes: the names the
// collector reports them under.
package sonic

import (
	"context"
	"strings"

	soniccol "github.com/roceaudit/roceaudit/collectors/sonic"
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

// renderers are the commands the switch knows, by their exact text.
var renderers = map[string]func(sw *switchstate.Switch) string{
	soniccol.CmdVersion:       showVersion,
	soniccol.CmdRunningConfig: showRunningConfig,
	soniccol.CmdLLDP:          showLLDPTable,
	soniccol.CmdPFCCounters:   showPFCCounters,
	soniccol.CmdQueueCounters: showQueueCounters,
}

// Commands lists the command lines the emulator answers with state (the collector's set).
func Commands() []string { return append([]string(nil), soniccol.Commands...) }

// Exec answers one command line as the switch's login shell would. Blanks between words do not
// matter; a leading "sudo -n " is accepted.
func (s *Switch) Exec(_ context.Context, cmd string) (stdout, stderr string, exit int) {
	argv, sudo := loginshell.Split(cmd)
	if len(argv) == 0 {
		return "", "", 0
	}
	render, ok := renderers[strings.Join(argv, " ")]
	if !ok {
		return loginshell.NotFound(argv[0], sudo)
	}
	s.State.Read(func(sw *switchstate.Switch) { stdout = render(sw) })
	return stdout, "", 0
}
