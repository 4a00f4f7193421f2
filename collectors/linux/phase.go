package linux

import (
	"context"
	"fmt"
	"strings"

	"github.com/roceaudit/roceaudit/collectors"
)

// A host is read in phases: every command whose inputs are known is sent in one batch (one
// SSH session on a runner that batches), and the tasks that parse the answers then find
// them in the executor's Prefetched instead of sending each command in its own session. Discovery is one phase;
// the per-port commands another; the fallbacks that depend on a per-port answer (dcb when
// mlnx_qos fails, default_roce_tos when traffic_class is unset) a third, only when needed.

// call is one command as sent (expand's answer: err when its values fail validation).
type call struct {
	cmd string
	err error
}

// call is template with vars, expanded.
func (e executor) call(template string, vars map[string]string) call {
	cmd, err := e.expand(template, vars)
	return call{cmd, err}
}

// phase sends calls as one batch, for run to answer from. A call whose values fail
// validation is not sent: run gives its validation error as it always has. A command
// already answered is not sent again.
func (e executor) phase(ctx context.Context, calls []call) {
	cmds := make([]string, 0, len(calls))
	for _, c := range calls {
		if c.err == nil {
			cmds = append(cmds, c.cmd)
		}
	}
	e.pre.Add(ctx, 1, cmds)
}

// sentCommands are the commands of calls that phase sends.
func sentCommands(calls []call) []string {
	out := make([]string, 0, len(calls))
	for _, c := range calls {
		if c.err == nil {
			out = append(out, c.cmd)
		}
	}
	return out
}

// expand fills template and adds the sudo prefix: the command exactly as sent. A template
// without placeholders (the discovery commands) is Expand's answer as it is.
func (e executor) expand(template string, vars map[string]string) (string, error) {
	cmd := template
	if len(vars) > 0 || strings.IndexByte(template, '{') >= 0 {
		var err error
		if cmd, err = collectors.Expand(template, vars); err != nil {
			return "", fmt.Errorf("not sent: %w", err)
		}
	}
	if e.sudo {
		cmd = collectors.SudoPrefix + cmd
	}
	return cmd, nil
}

// expansion is one of a port's commands as sent.
type expansion struct {
	template string
	call
}

// cmd is template with w's values as e sends it. The phases (portCalls, fallbackCalls), run
// by Collect's goroutine before the tasks start, remember each command they expand; the
// tasks, concurrent, only look them up. Expanding each command again in the fallback check
// and in its task was 9% of an 8-rail host's collection CPU and a tenth of its allocations.
func (w *portWork) cmd(e executor, template string) call {
	for i := range w.cmds {
		if w.cmds[i].template == template { // the same constant: its pointer decides
			return w.cmds[i].call
		}
	}
	return e.call(template, w.vars)
}

// remember is cmd, kept for the tasks: only the phases call it.
func (w *portWork) remember(e executor, template string) call {
	c := w.cmd(e, template)
	w.cmds = append(w.cmds, expansion{template, c})
	return c
}

// portCalls are the per-port commands w's tasks send whatever the answers: phase two.
func (w *portWork) portCalls(e executor, nic, tos bool) []call {
	out := make([]call, 0, 7)
	if nic {
		for _, t := range [...]string{CmdMlnxQos, CmdEthtoolPause, CmdECN, CmdPFCTunable} {
			out = append(out, w.remember(e, t))
		}
	}
	out = append(out, w.remember(e, CmdEthtoolStats))
	if w.t.bound {
		out = append(out, w.remember(e, CmdHwCounters))
	}
	if tos {
		out = append(out, w.remember(e, CmdTrafficClass))
	}
	return out
}

// fallbackCalls are the commands w's tasks will send given the phase-two answers: phase three.
func (w *portWork) fallbackCalls(e executor, nic, tos bool) []call {
	var out []call
	if nic {
		if mq, ok := w.answered(e, CmdMlnxQos); ok && w.needsDcb(mq) {
			for _, t := range [...]string{CmdDcbApp, CmdDcbPFC, CmdDcbDCBX} {
				out = append(out, w.remember(e, t))
			}
		}
	}
	if tos {
		if tc, ok := w.answered(e, CmdTrafficClass); ok && needsDefaultToS(tc) {
			out = append(out, w.remember(e, CmdDefaultRoCEToS))
		}
	}
	return out
}

// answered is a phase's answer to w's template, if it has one.
func (w *portWork) answered(e executor, template string) (result, bool) {
	c := w.cmd(e, template)
	if c.err != nil {
		return result{}, false
	}
	out, err, ok := e.pre.Answer(c.cmd)
	return result{cmd: c.cmd, out: out, err: err}, ok
}
