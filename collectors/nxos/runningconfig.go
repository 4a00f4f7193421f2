package nxos

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/collectors/internal/configtree"
)

// CmdQoSConfig reads class maps, policies, system qos and per-interface PFC/QoS settings.
const CmdQoSConfig = "show running-config ipqos"

// blockIndent is how far NX-OS indents each level of a configuration block.
const blockIndent = "  "

// ClassMap is a `class-map type qos|queuing|network-qos` and what it matches.
type ClassMap struct {
	Type, Name string
	DSCP       []int
	CoS        []int
	QoSGroups  []int
}

// PolicyClass is one `class` of a policy map and the actions under it.
type PolicyClass struct {
	Name        string
	SetQoSGroup *int  // type qos: set qos-group N
	PFCCoS      []int // type network-qos: pause pfc-cos ...
	MTU         int   // type network-qos: mtu N
	Priority    bool  // type queuing: priority [level N]
	Bandwidth   bool  // type queuing: bandwidth [remaining] percent N
	ECN         bool  // type queuing: random-detect ... ecn
}

// Policy is a `policy-map type qos|queuing|network-qos`.
type Policy struct {
	Type, Name string
	Classes    []*PolicyClass
	Lines      []string
}

// InterfaceQoS is the ipqos part of an `interface` block.
type InterfaceQoS struct {
	Name          string
	QoSInput      string
	QueuingOutput string
	PFCMode       string // "on" | "auto" | "off"; "" when absent (the default, auto)
	Watchdog      *bool  // priority-flow-control watch-dog-interval on|off
	// ChannelGroup is N of a member's `channel-group N [mode ...]` line, "" when absent.
	ChannelGroup string
	Lines        []string
}

// QoSConfig is the parsed `show running-config ipqos`.
type QoSConfig struct {
	ClassMaps map[string]*ClassMap // key "type/name"
	Policies  map[string]*Policy   // key "type/name"
	// System qos service policies.
	SystemQoSInput, SystemQueuingOutput, SystemNetworkQoS string
	SystemLines                                           []string
	Watchdog                                              *bool // global watch-dog-interval
	WatchdogLine                                          string
	Interfaces                                            map[string]*InterfaceQoS
	// PortChannels are the `interface port-channelN` blocks, keyed by N.
	PortChannels map[string]*InterfaceQoS
}

// ParseQoSConfig parses NX-OS `show running-config ipqos`. Lines it does not need are ignored;
// a line it needs that does not parse is an error naming it.
func ParseQoSConfig(out string) (*QoSConfig, error) {
	if err := descriptor.Refused(out); err != nil {
		return nil, fmt.Errorf("%s: %w", CmdQoSConfig, err)
	}
	if !strings.Contains(out, "!Command: show running-config ipqos") && !strings.Contains(out, "version ") {
		return nil, fmt.Errorf("%s: neither the !Command header nor a version line: not a running-config", CmdQoSConfig)
	}
	roots, err := configtree.Parse(out)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", CmdQoSConfig, err)
	}
	c := &QoSConfig{ClassMaps: map[string]*ClassMap{}, Policies: map[string]*Policy{}, Interfaces: map[string]*InterfaceQoS{}, PortChannels: map[string]*InterfaceQoS{}}
	for _, n := range roots {
		if err := c.top(n); err != nil {
			return nil, fmt.Errorf("%s: %w", CmdQoSConfig, err)
		}
	}
	return c, nil
}

func (c *QoSConfig) top(n *configtree.Node) error {
	var fb [8]string
	f := configtree.Fields(fb[:0], n.Line)
	switch {
	case len(f) >= 4 && f[0] == "class-map" && f[1] == "type":
		cm := &ClassMap{Type: f[2], Name: f[len(f)-1]}
		for _, ch := range n.Children {
			if err := cm.match(ch.Line); err != nil {
				return fmt.Errorf("class-map %s: %w", cm.Name, err)
			}
		}
		c.ClassMaps[cm.Type+"/"+cm.Name] = cm
	case len(f) == 4 && f[0] == "policy-map" && f[1] == "type":
		p := &Policy{Type: f[2], Name: f[3]}
		p.Lines = n.AppendLines(p.Lines, blockIndent)
		for _, ch := range n.Children {
			var cb [8]string
			cf := configtree.Fields(cb[:0], ch.Line)
			if len(cf) < 2 || cf[0] != "class" {
				continue
			}
			pc := &PolicyClass{Name: cf[len(cf)-1]}
			for _, a := range ch.Children {
				if err := pc.action(a.Line); err != nil {
					return fmt.Errorf("policy-map %s class %s: %w", p.Name, pc.Name, err)
				}
			}
			p.Classes = append(p.Classes, pc)
		}
		c.Policies[p.Type+"/"+p.Name] = p
	case n.Line == "system qos":
		c.SystemLines = n.AppendLines(c.SystemLines, blockIndent)
		for _, ch := range n.Children {
			t, dir, name, ok := servicePolicy(ch.Line)
			switch {
			case !ok:
			case t == "qos" && dir == "input":
				c.SystemQoSInput = name
			case t == "queuing" && dir == "output":
				c.SystemQueuingOutput = name
			case t == "network-qos":
				c.SystemNetworkQoS = name
			}
		}
	case len(f) == 3 && f[0] == "priority-flow-control" && f[1] == "watch-dog-interval":
		v, err := onOff(n.Line, f[2])
		if err != nil {
			return err
		}
		c.Watchdog, c.WatchdogLine = &v, n.Line
	case len(f) == 2 && f[0] == "interface":
		num, isPC := portChannelNumber(f[1])
		if !isPC && !IsFrontPanel(f[1]) {
			return nil
		}
		iq := &InterfaceQoS{Name: f[1]}
		iq.Lines = n.AppendLines(iq.Lines, blockIndent)
		for _, ch := range n.Children {
			if err := iq.apply(ch.Line); err != nil {
				return fmt.Errorf("interface %s: %w", iq.Name, err)
			}
		}
		if isPC {
			c.PortChannels[num] = iq
		} else {
			c.Interfaces[iq.Name] = iq
		}
	}
	return nil
}

func (cm *ClassMap) match(line string) error {
	var fb [8]string
	f := configtree.Fields(fb[:0], line)
	if len(f) < 3 || f[0] != "match" {
		return nil
	}
	list := strings.Join(f[2:], " ")
	var err error
	switch f[1] {
	case "dscp":
		var v []int
		v, err = parseValues(list, 63, dscpNames)
		cm.DSCP = append(cm.DSCP, v...)
	case "cos":
		var v []int
		v, err = parseValues(list, 7, nil)
		cm.CoS = append(cm.CoS, v...)
	case "qos-group":
		var v []int
		v, err = parseValues(list, 7, nil)
		cm.QoSGroups = append(cm.QoSGroups, v...)
	}
	if err != nil {
		return fmt.Errorf("%q: %w", line, err)
	}
	return nil
}

func (pc *PolicyClass) action(line string) error {
	var fb [8]string
	f := configtree.Fields(fb[:0], line)
	switch {
	case len(f) == 3 && f[0] == "set" && f[1] == "qos-group":
		v, err := strconv.Atoi(f[2])
		if err != nil || v < 0 || v > 7 {
			return fmt.Errorf("%q: qos-group is not 0..7", line)
		}
		pc.SetQoSGroup = &v
	case len(f) >= 2 && f[0] == "pause":
		i := indexOf(f, "pfc-cos")
		if i < 0 || i == len(f)-1 {
			return nil // pause buffer tuning without pfc-cos
		}
		v, err := parseValues(strings.Join(f[i+1:], " "), 7, nil)
		if err != nil {
			return fmt.Errorf("%q: %w", line, err)
		}
		pc.PFCCoS = append(pc.PFCCoS, v...)
	case len(f) == 2 && f[0] == "mtu":
		v, err := strconv.Atoi(f[1])
		if err != nil {
			return fmt.Errorf("%q: MTU is not a number", line)
		}
		pc.MTU = v
	case f[0] == "priority":
		pc.Priority = true
	case f[0] == "bandwidth":
		pc.Bandwidth = true
	case f[0] == "random-detect" && indexOf(f, "ecn") > 0:
		pc.ECN = true
	}
	return nil
}

func (iq *InterfaceQoS) apply(line string) error {
	if t, dir, name, ok := servicePolicy(line); ok {
		switch {
		case t == "qos" && dir == "input":
			iq.QoSInput = name
		case t == "queuing" && dir == "output":
			iq.QueuingOutput = name
		}
		return nil
	}
	var fb [8]string
	f := configtree.Fields(fb[:0], line)
	switch {
	case len(f) >= 3 && f[0] == "priority-flow-control" && f[1] == "mode":
		if f[2] != "on" && f[2] != "auto" && f[2] != "off" {
			return fmt.Errorf("%q: unknown PFC mode", line)
		}
		iq.PFCMode = f[2]
	case len(f) == 3 && f[0] == "priority-flow-control" && f[1] == "watch-dog-interval":
		v, err := onOff(line, f[2])
		if err != nil {
			return err
		}
		iq.Watchdog = &v
	case len(f) >= 2 && f[0] == "channel-group":
		if _, err := strconv.Atoi(f[1]); err != nil {
			return fmt.Errorf("%q: channel-group %q is not a number", line, f[1])
		}
		iq.ChannelGroup = f[1]
	}
	return nil
}

var servicePolicyRE = regexp.MustCompile(`^service-policy type (qos|queuing|network-qos)(?: (input|output))? (\S+)$`)

func servicePolicy(line string) (typ, dir, name string, ok bool) {
	// The expression matches no other line: most of an interface's lines are rejected here,
	// without it.
	if !strings.HasPrefix(line, "service-policy type ") {
		return "", "", "", false
	}
	m := servicePolicyRE.FindStringSubmatch(line)
	if m == nil {
		return "", "", "", false
	}
	return m[1], m[2], m[3], true
}

func onOff(line, v string) (bool, error) {
	switch v {
	case "on":
		return true, nil
	case "off":
		return false, nil
	}
	return false, fmt.Errorf("%q: expected on or off", line)
}

func indexOf(f []string, s string) int {
	for i, x := range f {
		if x == s {
			return i
		}
	}
	return -1
}
