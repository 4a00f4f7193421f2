package linux

import (
	"context"
	"fmt"

	"github.com/roceaudit/roceaudit/collectors"
)

// A host is read in phases: every command whose inputs are known is sent in one batch (one
// SSH session on a runner that batches), and the tasks that parse the answers then find
// them in the executor's Prefetched instead of sending each command in its own session. Discovery is one phase;
// the per-port commands another; the fallbacks that depend on a per-port answer (dcb when
// mlnx_qos fails, default_roce_tos when traffic_class is unset) a third, only when needed.

// call is one command template and its values.
type call struct {
	template string
	vars     map[string]string
}

// phase sends calls as one batch, for run to answer from. A call whose values fail
// validation is not sent: run gives its validation error as it always has. A command
// already answered is not sent again.
func (e executor) phase(ctx context.Context, calls []call) {
	cmds := make([]string, 0, len(calls))
	for _, c := range calls {
		if cmd, err := e.expand(c.template, c.vars); err == nil {
			cmds = append(cmds, cmd)
		}
	}
	e.pre.Add(ctx, 1, cmds)
}

// expand fills template and adds the sudo prefix: the command exactly as sent.
func (e executor) expand(template string, vars map[string]string) (string, error) {
	cmd, err := collectors.Expand(template, vars)
	if err != nil {
		return "", fmt.Errorf("not sent: %w", err)
	}
	if e.sudo {
		cmd = collectors.SudoPrefix + cmd
	}
	return cmd, nil
}

// portCalls are the per-port commands w's tasks send whatever the answers: phase two.
func (w *portWork) portCalls(nic, tos bool) []call {
	var out []call
	if nic {
		for _, t := range []string{CmdMlnxQos, CmdEthtoolPause, CmdECN, CmdPFCTunable} {
			out = append(out, call{t, w.vars})
		}
	}
	out = append(out, call{CmdEthtoolStats, w.vars})
	if w.t.bound {
		out = append(out, call{CmdHwCounters, w.vars})
	}
	if tos {
		out = append(out, call{CmdTrafficClass, w.vars})
	}
	return out
}

// fallbackCalls are the commands w's tasks will send given the phase-two answers: phase three.
func (w *portWork) fallbackCalls(e executor, nic, tos bool) []call {
	var out []call
	if nic {
		if mq, ok := e.answered(CmdMlnxQos, w.vars); ok && w.needsDcb(mq) {
			for _, t := range []string{CmdDcbApp, CmdDcbPFC, CmdDcbDCBX} {
				out = append(out, call{t, w.vars})
			}
		}
	}
	if tos {
		if tc, ok := e.answered(CmdTrafficClass, w.vars); ok && needsDefaultToS(tc) {
			out = append(out, call{CmdDefaultRoCEToS, w.vars})
		}
	}
	return out
}

// answered is a phase's answer to template with vars, if it has one.
func (e executor) answered(template string, vars map[string]string) (result, bool) {
	cmd, err := e.expand(template, vars)
	if err != nil {
		return result{}, false
	}
	out, err, ok := e.pre.Answer(cmd)
	return result{cmd: cmd, out: out, err: err}, ok
}
