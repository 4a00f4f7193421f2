package nxos

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
)

// Classification is what the qos input policy of a port does with DSCP and CoS.
type Classification struct {
	Policy   string // "" when none is attached
	Trust    string // "dscp", "pcp", "both", "none"
	DSCPToQG map[int]int
	Lines    []string
}

// Classify resolves the qos input policy of iface (interface, else system qos) into a full
// DSCP -> qos-group map. Classes are tried in order; DSCPs that no class matches go to
// class-default's qos-group, 0 unless it sets one.
func (c *QoSConfig) Classify(iq *InterfaceQoS) (Classification, error) {
	name := c.SystemQoSInput
	if iq != nil && iq.QoSInput != "" {
		name = iq.QoSInput
	}
	cl := Classification{Policy: name, Trust: "none", DSCPToQG: make(map[int]int, 64)}
	for d := 0; d < 64; d++ {
		cl.DSCPToQG[d] = 0
	}
	if name == "" {
		return cl, nil
	}
	p, ok := c.Policies["qos/"+name]
	if !ok {
		return cl, fmt.Errorf("qos policy %s is attached but not defined", name)
	}
	cl.Lines = p.Lines
	def := 0
	var dscp, cos bool
	var assigned dscpSet // per port: an array, not a map
	for _, pc := range p.Classes {
		group := 0
		if pc.SetQoSGroup != nil {
			group = *pc.SetQoSGroup
		}
		if pc.Name == "class-default" {
			def = group
			continue
		}
		cm, ok := c.ClassMaps["qos/"+pc.Name]
		if !ok {
			return cl, fmt.Errorf("policy-map %s uses class %s, which is not defined", name, pc.Name)
		}
		dscp = dscp || len(cm.DSCP) > 0
		cos = cos || len(cm.CoS) > 0
		for _, d := range cm.DSCP {
			if assigned.add(d) {
				cl.DSCPToQG[d] = group
			}
		}
	}
	for d := 0; d < 64; d++ {
		if !assigned.has(d) {
			cl.DSCPToQG[d] = def
		}
	}
	switch {
	case dscp && cos:
		cl.Trust = "both"
	case dscp:
		cl.Trust = "dscp"
	case cos:
		cl.Trust = "pcp"
	}
	return cl, nil
}

// dscpSet is a set of DSCP values: 0..63 in an array, any other (a class map the parser let
// through) in a map.
type dscpSet struct {
	in    [64]bool
	other map[int]bool
}

// add adds d and says whether it was new.
func (s *dscpSet) add(d int) bool {
	if 0 <= d && d < 64 {
		was := s.in[d]
		s.in[d] = true
		return !was
	}
	if s.other[d] {
		return false
	}
	if s.other == nil {
		s.other = map[int]bool{}
	}
	s.other[d] = true
	return true
}

func (s *dscpSet) has(d int) bool {
	if 0 <= d && d < 64 {
		return s.in[d]
	}
	return s.other[d]
}

// NoDrop is the active network-qos policy's lossless classes.
type NoDrop struct {
	Policy    string
	PFCCoS    []int // priorities PFC pauses
	QoSGroups []int // qos-groups of the no-drop classes
	// CoSGroup maps each paused priority to the qos-group of the class that pauses it.
	CoSGroup map[int]int
	Lines    []string
}

var (
	nqClass = regexp.MustCompile(`^c-(?:8q-)?nq(\d|-default)$`)
	qClass  = regexp.MustCompile(`^c-out-(?:8q-)?q(\d|-default)$`)
)

// classGroup maps a system-defined class name (c-8q-nq3, c-out-8q-q-default) or a
// user class map with `match qos-group N` to its qos-group / queue number.
func (c *QoSConfig) classGroup(typ, class string, re *regexp.Regexp) (int, error) {
	if m := re.FindStringSubmatch(class); m != nil {
		if m[1] == "-default" {
			return 0, nil
		}
		return strconv.Atoi(m[1])
	}
	if cm, ok := c.ClassMaps[typ+"/"+class]; ok && len(cm.QoSGroups) == 1 {
		return cm.QoSGroups[0], nil
	}
	return 0, fmt.Errorf("class %s: cannot tell its qos-group (not a system class, no single match qos-group)", class)
}

// Lossless resolves the network-qos policy attached under system qos. None attached means
// the default policy, which pauses nothing.
func (c *QoSConfig) Lossless() (NoDrop, error) {
	nd := NoDrop{Policy: c.SystemNetworkQoS, PFCCoS: []int{}, QoSGroups: []int{}, CoSGroup: map[int]int{}}
	if nd.Policy == "" {
		return nd, nil
	}
	p, ok := c.Policies["network-qos/"+nd.Policy]
	if !ok {
		return nd, fmt.Errorf("network-qos policy %s is attached but not defined", nd.Policy)
	}
	nd.Lines = p.Lines
	cos, groups := map[int]bool{}, map[int]bool{}
	for _, pc := range p.Classes {
		if len(pc.PFCCoS) == 0 {
			continue
		}
		g, err := c.classGroup("network-qos", pc.Name, nqClass)
		if err != nil {
			return nd, fmt.Errorf("network-qos policy %s: %w", nd.Policy, err)
		}
		groups[g] = true
		for _, v := range pc.PFCCoS {
			cos[v], nd.CoSGroup[v] = true, g
		}
	}
	nd.PFCCoS, nd.QoSGroups = keys(cos), keys(groups)
	return nd, nil
}

// Queuing is the egress queuing policy of a port.
type Queuing struct {
	Policy    string
	ECN       map[int]bool
	Scheduler map[int]string
	Lines     []string
}

// Queues resolves the queuing output policy of iface (interface, else system qos). ok is false
// when none is attached: the default policy is then in force and not in the configuration.
// Queues the policy does not list are DWRR (bandwidth 0), as NX-OS schedules them.
func (c *QoSConfig) Queues(iq *InterfaceQoS) (q Queuing, ok bool, err error) {
	q.Policy = c.SystemQueuingOutput
	if iq != nil && iq.QueuingOutput != "" {
		q.Policy = iq.QueuingOutput
	}
	q.ECN, q.Scheduler = map[int]bool{}, map[int]string{}
	for n := 0; n < 8; n++ {
		q.ECN[n], q.Scheduler[n] = false, "dwrr"
	}
	if q.Policy == "" {
		return q, false, nil
	}
	p, found := c.Policies["queuing/"+q.Policy]
	if !found {
		return q, false, fmt.Errorf("queuing policy %s is attached but not defined", q.Policy)
	}
	q.Lines = p.Lines
	for _, pc := range p.Classes {
		n, err := c.classGroup("queuing", pc.Name, qClass)
		if err != nil {
			return q, false, fmt.Errorf("queuing policy %s: %w", q.Policy, err)
		}
		if pc.Priority {
			q.Scheduler[n] = "strict"
		}
		q.ECN[n] = pc.ECN
	}
	return q, true, nil
}

// PFCMode is the port's priority-flow-control mode, auto when the configuration is silent.
func PFCMode(iq *InterfaceQoS) string {
	if iq == nil || iq.PFCMode == "" {
		return "auto"
	}
	return iq.PFCMode
}

func keys(m map[int]bool) []int {
	out := []int{}
	for k := range m {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}
