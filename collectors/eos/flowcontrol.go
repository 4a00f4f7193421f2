package eos

import (
	"fmt"
	"strings"
)

// CmdFlowcontrol reads 802.3x link pause per port (text: its JSON shape is not documented).
const CmdFlowcontrol = "show interfaces flowcontrol"

// FlowControl is one row of `show interfaces flowcontrol`.
type FlowControl struct {
	Port                      string // long name
	SendAdmin, SendOper       string // on | off | desired | unknown | unsupp.
	ReceiveAdmin, ReceiveOper string
	Line                      string
}

// Sending and Receiving decide whether 802.3x pause is in effect in one direction: the
// operational state when the link reports one, else the configuration ("on" on a port whose
// link is down still counts; "desired" only counts once negotiated on).
func (f FlowControl) Sending() bool   { return pauseOn(f.SendAdmin, f.SendOper) }
func (f FlowControl) Receiving() bool { return pauseOn(f.ReceiveAdmin, f.ReceiveOper) }

func pauseOn(admin, oper string) bool {
	if oper == "on" {
		return true
	}
	return oper == "unknown" && admin == "on"
}

// flowRow splits a row as `^(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\d+)\s+(\d+)\s*$` did (by hand:
// the expression was two thirds of the parse): port, 4 states and 2 counters, the line
// starting with the port. \s is [\t\n\f\r ], \S any other byte (the classes are complements,
// so the fields are the runs of non-space).
func flowRow(l string) (f [7]string, ok bool) {
	space := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }
	i := 0
	for n := range f {
		start := i
		for i < len(l) && !space(l[i]) {
			i++
		}
		if i == start {
			return f, false
		}
		f[n] = l[start:i]
		for i < len(l) && space(l[i]) {
			i++
		}
	}
	if i != len(l) {
		return f, false
	}
	for _, d := range f[5:] {
		for j := 0; j < len(d); j++ {
			if d[j] < '0' || d[j] > '9' {
				return f, false
			}
		}
	}
	return f, true
}

var flowStates = map[string]bool{"on": true, "off": true, "desired": true, "unknown": true, "unsupp.": true, "unsupported": true, "n/a": true}

// ParseFlowcontrol parses `show interfaces flowcontrol`, keyed by long port name.
func ParseFlowcontrol(out string) (map[string]FlowControl, error) {
	if err := descriptor.Refused(out); err != nil {
		return nil, fmt.Errorf("%s: %w", CmdFlowcontrol, err)
	}
	lines := strings.Split(strings.ReplaceAll(out, "\r\n", "\n"), "\n")
	i := 0
	for ; i < len(lines) && !strings.Contains(lines[i], "Send FlowControl"); i++ {
	}
	if i == len(lines) {
		return nil, fmt.Errorf("%s: no \"Send FlowControl\" header in the output", CmdFlowcontrol)
	}
	for ; i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), "---"); i++ {
	}
	if i == len(lines) {
		return nil, fmt.Errorf("%s: no dashed line under the header", CmdFlowcontrol)
	}
	res := make(map[string]FlowControl, len(lines)-i)
	for n, l := range lines[i+1:] {
		if strings.TrimSpace(l) == "" {
			continue
		}
		f, ok := flowRow(l)
		if !ok {
			return nil, fmt.Errorf("%s: row %d %q is not port, 4 states and 2 counters", CmdFlowcontrol, n+1, strings.TrimSpace(l))
		}
		for _, s := range f[1:5] {
			if !flowStates[strings.ToLower(s)] {
				return nil, fmt.Errorf("%s: row %q has an unknown flow-control state %q", CmdFlowcontrol, strings.TrimSpace(l), s)
			}
		}
		port := LongName(f[0])
		res[port] = FlowControl{Port: port, SendAdmin: strings.ToLower(f[1]), SendOper: strings.ToLower(f[2]),
			ReceiveAdmin: strings.ToLower(f[3]), ReceiveOper: strings.ToLower(f[4]), Line: strings.TrimRight(l, " ")}
	}
	return res, nil
}
