package eos

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/collectors/internal/configtree"
)

// CmdRunningConfig reads the QoS configuration: maps, qos profiles, per-interface PFC,
// trust, tx-queues, DCBX and 802.3x settings.
const CmdRunningConfig = "show running-config"

// blockIndent is how far EOS indents each level of a configuration block.
const blockIndent = "   "

// QoS is the lossless-relevant settings of an interface or a qos profile. Nil pointers and
// empty strings mean "not configured here".
type QoS struct {
	Trust    string // "dscp", "cos", "none"
	PFC      *bool  // priority-flow-control on / off
	NoDrop   map[int]bool
	Watchdog *bool // priority-flow-control pause watchdog
	// WatchdogTimer is the port timer line (`priority-flow-control pause watchdog port timer
	// timeout S ...`), "" when the port takes the global default.
	WatchdogTimer string
	TxQueues      map[int]*TxQueue
	Lines         []string // the lines these came from, for evidence
}

// TxQueue is a tx-queue / uc-tx-queue block.
type TxQueue struct {
	Priority string // "strict" (priority strict), "round-robin" (no priority), "" (default)
	ECN      bool   // random-detect ecn ...
	// ECNLine is the queue's `random-detect ecn minimum-threshold ...` line: its thresholds.
	ECNLine string
}

// InterfaceConfig is an `interface EthernetX` block.
type InterfaceConfig struct {
	Name string
	QoS
	ServiceProfile string
	MTU            int
	Routed         bool   // no switchport
	DCBX           string // "ieee", "cee" or ""
	FlowSend       string // flowcontrol send on|off|desired, "" when absent
	FlowReceive    string
	// ChannelGroup is N of a member's `channel-group N mode ...` line, "" when absent.
	ChannelGroup string
	HasLines     bool
}

// RunningConfig is the parsed QoS-relevant part of `show running-config`.
type RunningConfig struct {
	DSCPToTC   map[int]int // qos map dscp ... to traffic-class N
	DSCPLines  []string
	TCToQueue  map[int]int // qos map traffic-class ... to tx-queue N
	QueueLines []string
	PFCAllOff  bool
	Profiles   map[string]*QoS
	Interfaces map[string]*InterfaceConfig
	// PortChannels are the `interface Port-ChannelN` blocks, keyed by N.
	PortChannels map[string]*InterfaceConfig
	GlobalLines  []string // global priority-flow-control lines
	// Watchdog is the global PFC watchdog configuration, parsed once from GlobalLines.
	Watchdog WatchdogDefaults
}

// ParseRunningConfig parses EOS `show running-config`. Lines it does not need are ignored;
// a line it needs that does not parse is an error naming it.
func ParseRunningConfig(out string) (*RunningConfig, error) {
	if err := descriptor.Refused(out); err != nil {
		return nil, fmt.Errorf("%s: %w", CmdRunningConfig, err)
	}
	roots, err := configtree.Parse(out)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", CmdRunningConfig, err)
	}
	if len(roots) == 0 {
		return nil, fmt.Errorf("%s: the output holds no configuration line", CmdRunningConfig)
	}
	rc := &RunningConfig{DSCPToTC: map[int]int{}, TCToQueue: map[int]int{}, Profiles: map[string]*QoS{}, Interfaces: map[string]*InterfaceConfig{}, PortChannels: map[string]*InterfaceConfig{}}
	sawInterface := false
	for _, n := range roots {
		var fb [8]string
		f := configtree.Fields(fb[:0], n.Line)
		switch {
		case len(f) >= 2 && f[0] == "interface":
			sawInterface = true
			num, isPC := portChannelNumber(f[1])
			if !isPC && !IsFrontPanel(f[1]) {
				continue
			}
			ic, err := parseInterface(f[1], n)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", CmdRunningConfig, err)
			}
			if isPC {
				rc.PortChannels[num] = ic
			} else {
				rc.Interfaces[ic.Name] = ic
			}
		case len(f) >= 3 && f[0] == "qos" && f[1] == "profile":
			q := &QoS{}
			q.Lines = n.AppendLines(nil, blockIndent)
			for _, c := range n.Children {
				if _, err := q.apply(c); err != nil {
					return nil, fmt.Errorf("%s: qos profile %s: %w", CmdRunningConfig, f[2], err)
				}
			}
			rc.Profiles[f[2]] = q
		case strings.HasPrefix(n.Line, "qos map dscp "):
			from, to, err := parseMap(n.Line, "qos map dscp ", "traffic-class", 63)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", CmdRunningConfig, err)
			}
			for _, d := range from {
				rc.DSCPToTC[d] = to
			}
			rc.DSCPLines = append(rc.DSCPLines, n.Line)
		case strings.HasPrefix(n.Line, "qos map traffic-class ") && strings.Contains(n.Line, " to tx-queue "):
			from, to, err := parseMap(n.Line, "qos map traffic-class ", "tx-queue", 7)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", CmdRunningConfig, err)
			}
			for _, tc := range from {
				rc.TCToQueue[tc] = to
			}
			rc.QueueLines = append(rc.QueueLines, n.Line)
		case n.Line == "priority-flow-control all off":
			rc.PFCAllOff = true
			rc.GlobalLines = append(rc.GlobalLines, n.Line)
		case strings.HasPrefix(n.Line, "priority-flow-control "):
			rc.GlobalLines = append(rc.GlobalLines, n.Line)
		}
	}
	if !sawInterface {
		return nil, fmt.Errorf("%s: no interface block in the output (not a running-config?)", CmdRunningConfig)
	}
	rc.Watchdog = parseWatchdogDefaults(rc.GlobalLines)
	return rc, nil
}

// parseMap reads "qos map dscp 24 25 26 to traffic-class 3" style lines.
func parseMap(line, prefix, target string, maxFrom int) ([]int, int, error) {
	rest := strings.TrimPrefix(line, prefix)
	lhs, rhs, ok := strings.Cut(rest, " to "+target+" ")
	if !ok {
		return nil, 0, fmt.Errorf("%q: expected \"... to %s N\"", line, target)
	}
	to, err := strconv.Atoi(strings.TrimSpace(rhs))
	if err != nil || to < 0 || to > 7 {
		return nil, 0, fmt.Errorf("%q: %s %q is not 0..7", line, target, strings.TrimSpace(rhs))
	}
	var from []int
	for _, s := range strings.Fields(lhs) {
		v, err := strconv.Atoi(s)
		if err != nil || v < 0 || v > maxFrom {
			return nil, 0, fmt.Errorf("%q: %q is not a value 0..%d", line, s, maxFrom)
		}
		from = append(from, v)
	}
	if len(from) == 0 {
		return nil, 0, fmt.Errorf("%q: no value to map", line)
	}
	return from, to, nil
}

func parseInterface(name string, n *configtree.Node) (*InterfaceConfig, error) {
	ic := &InterfaceConfig{Name: name, HasLines: len(n.Children) > 0}
	ic.Lines = n.AppendLines(nil, blockIndent)
	for _, c := range n.Children {
		used, err := ic.QoS.apply(c)
		if err != nil {
			return nil, fmt.Errorf("interface %s: %w", name, err)
		}
		if used {
			continue
		}
		var fb [8]string
		f := configtree.Fields(fb[:0], c.Line)
		switch {
		case len(f) == 2 && f[0] == "service-profile":
			ic.ServiceProfile = f[1]
		case len(f) == 2 && f[0] == "mtu":
			v, err := strconv.Atoi(f[1])
			if err != nil {
				return nil, fmt.Errorf("interface %s: %q: MTU is not a number", name, c.Line)
			}
			ic.MTU = v
		case len(f) >= 2 && f[0] == "channel-group":
			if _, err := strconv.Atoi(f[1]); err != nil {
				return nil, fmt.Errorf("interface %s: %q: channel-group %q is not a number", name, c.Line, f[1])
			}
			ic.ChannelGroup = f[1]
		case c.Line == "no switchport":
			ic.Routed = true
		case len(f) == 3 && f[0] == "dcbx" && f[1] == "mode":
			if f[2] != "ieee" && f[2] != "cee" {
				return nil, fmt.Errorf("interface %s: %q: unknown DCBX mode", name, c.Line)
			}
			ic.DCBX = f[2]
		case len(f) == 3 && f[0] == "flowcontrol" && (f[1] == "send" || f[1] == "receive"):
			if f[2] != "on" && f[2] != "off" && f[2] != "desired" {
				return nil, fmt.Errorf("interface %s: %q: unknown flowcontrol state", name, c.Line)
			}
			if f[1] == "send" {
				ic.FlowSend = f[2]
			} else {
				ic.FlowReceive = f[2]
			}
		}
	}
	return ic, nil
}

// apply records a QoS line that may sit under an interface or a qos profile; it reports
// whether the line was one of them.
func (q *QoS) apply(n *configtree.Node) (bool, error) {
	var fb [8]string
	f := configtree.Fields(fb[:0], n.Line)
	switch {
	case len(f) == 3 && f[0] == "qos" && f[1] == "trust":
		switch f[2] {
		case "dscp", "cos":
			q.Trust = f[2]
		case "disabled":
			q.Trust = "none"
		default:
			return true, fmt.Errorf("%q: unknown trust mode", n.Line)
		}
	case n.Line == "no qos trust":
		q.Trust = "none"
	case n.Line == "priority-flow-control on" || n.Line == "priority-flow-control mode on":
		q.PFC = ptr(true)
	case n.Line == "priority-flow-control off" || n.Line == "priority-flow-control mode off" || n.Line == "no priority-flow-control":
		q.PFC = ptr(false)
	case len(f) == 4 && f[0] == "priority-flow-control" && f[1] == "priority":
		p, err := strconv.Atoi(f[2])
		if err != nil || p < 0 || p > 7 {
			return true, fmt.Errorf("%q: %q is not a priority 0..7", n.Line, f[2])
		}
		if f[3] != "no-drop" && f[3] != "drop" {
			return true, fmt.Errorf("%q: expected no-drop or drop", n.Line)
		}
		if q.NoDrop == nil {
			q.NoDrop = map[int]bool{}
		}
		q.NoDrop[p] = f[3] == "no-drop"
	case n.Line == "priority-flow-control pause watchdog":
		q.Watchdog = ptr(true)
	case n.Line == "no priority-flow-control pause watchdog":
		q.Watchdog = ptr(false)
	case strings.HasPrefix(n.Line, "priority-flow-control pause watchdog port timer "):
		q.WatchdogTimer = n.Line
	case strings.HasPrefix(n.Line, "priority-flow-control pause watchdog "):
		// the port action: the watchdog's timers decide when it acts, not how
	case len(f) == 2 && (f[0] == "tx-queue" || f[0] == "uc-tx-queue"):
		tq, err := strconv.Atoi(f[1])
		if err != nil || tq < 0 || tq > 7 {
			return true, fmt.Errorf("%q: %q is not a queue 0..7", n.Line, f[1])
		}
		if q.TxQueues == nil {
			q.TxQueues = map[int]*TxQueue{}
		}
		t := q.TxQueues[tq]
		if t == nil {
			t = &TxQueue{}
			q.TxQueues[tq] = t
		}
		for _, c := range n.Children {
			switch {
			case c.Line == "priority strict":
				t.Priority = "strict"
			case c.Line == "no priority":
				t.Priority = "round-robin"
			case strings.HasPrefix(c.Line, "random-detect ecn minimum-threshold "):
				t.ECN, t.ECNLine = true, c.Line
			}
		}
	case len(f) == 2 && f[0] == "mc-tx-queue":
		// multicast queues do not carry RoCE
	default:
		return false, nil
	}
	return true, nil
}

func ptr[T any](v T) *T { return &v }
