package nxos

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// lastChange is when the emulated configuration was last saved.
const lastChange = "Tue Nov 21 09:14:52 2023"

// classifier is what a port's qos input policy does: DSCP classes from its map, or CoS
// classes (each CoS to its own qos-group) when the port does not trust DSCP.
type classifier struct {
	dscp bool
	tc   [64]int
}

func classifierOf(p *switchstate.Port) classifier {
	if p.TrustDSCP {
		return classifier{dscp: true, tc: p.DSCPToTC}
	}
	return classifier{}
}

// scheduling is what a port's queuing output policy does.
type scheduling struct {
	ecn, strict [8]bool
	weight      [8]int // bandwidth remaining percent; all zero: equal shares
}

func schedulingOf(p *switchstate.Port) scheduling {
	return scheduling{ecn: p.ECN, strict: p.Strict, weight: p.Weight}
}

// variants lists the distinct values ports have, the most common first, and which one each
// port uses. Variant 0 is the base policy; the others are numbered from 2.
func variants[T comparable](ports []*switchstate.Port, get func(*switchstate.Port) T) ([]T, map[*switchstate.Port]int) {
	var zero T
	vs := []T{switchstate.Majority(ports, zero, get)}
	use := map[*switchstate.Port]int{}
	for _, p := range ports {
		v, i := get(p), 0
		for i < len(vs) && vs[i] != v {
			i++
		}
		if i == len(vs) {
			vs = append(vs, v)
		}
		use[p] = i
	}
	return vs, use
}

func variantName(base string, i int) string {
	if i == 0 {
		return base
	}
	return fmt.Sprintf("%s-%d", base, i+1)
}

// globalPFC is the switch's pfc-cos list: the no-drop priorities most PFC ports have.
func globalPFC(sw *switchstate.Switch) []int {
	var withPFC []*switchstate.Port
	for _, p := range sw.Ports {
		if len(p.PFCPriorities()) > 0 {
			withPFC = append(withPFC, p)
		}
	}
	key := switchstate.Majority(withPFC, "", func(p *switchstate.Port) string { return fmt.Sprint(p.PFCPriorities()) })
	for _, p := range withPFC {
		if fmt.Sprint(p.PFCPriorities()) == key {
			return p.PFCPriorities()
		}
	}
	return nil
}

// showIPQoS renders `show running-config ipqos`: class maps, the qos, queuing and
// network-qos policies, system qos, the global watchdog and each port's QoS lines.
func showIPQoS(sw *switchstate.Switch, now time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n!Command: show running-config ipqos\n!Running configuration last done at: %s\n!Time: %s\n\n",
		lastChange, now.Format("Mon Jan _2 15:04:05 2006"))
	fmt.Fprintf(&b, "version %s Bios:version 05.47 \n", version(sw))

	sp := spellingOf(sw)
	classifiers, classUse := variants(sw.Ports, classifierOf)
	schedules, schedUse := variants(sw.Ports, schedulingOf)
	wd := switchstate.Majority(sw.Ports, false, (*switchstate.Port).WatchdogOn)
	if wd && sp.watchdogFirst {
		b.WriteString("priority-flow-control watch-dog-interval on\n")
	}
	pfc := globalPFC(sw)
	if sp.networkFirst {
		writeNetworkPolicy(&b, sp, pfc)
	}
	if len(sw.Ports) > 0 {
		for i, c := range classifiers {
			writeClassMaps(&b, sp, c, i)
		}
		for i, c := range classifiers {
			writeQoSPolicy(&b, sp, c, i)
		}
		for i, s := range schedules {
			writeQueuingPolicy(&b, sp, s, i)
		}
	}
	if !sp.networkFirst {
		writeNetworkPolicy(&b, sp, pfc)
	}
	b.WriteString("system qos\n")
	queuing := fmt.Sprintf("  service-policy type queuing output %s\n", sp.queuing)
	if len(sw.Ports) > 0 && sp.networkFirst {
		b.WriteString(queuing)
	}
	fmt.Fprintf(&b, "  service-policy type network-qos %s\n", sp.network)
	if len(sw.Ports) > 0 && !sp.networkFirst {
		b.WriteString(queuing)
	}
	if wd && !sp.watchdogFirst {
		b.WriteString("priority-flow-control watch-dog-interval on\n")
	}

	for _, p := range sw.SortedPorts() {
		fmt.Fprintf(&b, "\ninterface %s\n", p.Name)
		if mode := pfcMode(p); mode != "auto" { // auto is the default, which NX-OS does not show
			fmt.Fprintf(&b, "  priority-flow-control mode %s\n", mode)
		}
		if w := p.WatchdogOn(); w != wd || sp.portWatchdog {
			fmt.Fprintf(&b, "  priority-flow-control watch-dog-interval %s\n", map[bool]string{true: "on", false: "off"}[w])
		}
		fmt.Fprintf(&b, "  service-policy type qos input %s\n", variantName(sp.qos, classUse[p]))
		if i := schedUse[p]; i != 0 {
			fmt.Fprintf(&b, "  service-policy type queuing output %s\n", variantName(sp.queuing, i))
		}
	}
	b.WriteString("\n")
	return b.String()
}

// classSuffix names a system class: "c-8q-nq3", and "c-8q-nq-default" for group 0.
func classSuffix(prefix string, g int) string {
	if g == 0 {
		return prefix + "-default"
	}
	return fmt.Sprintf("%s%d", prefix, g)
}

// className is the class map that sends traffic to qos-group g in classifier variant i. The
// CoS classifier is always the same, so its classes need no variant number.
func className(sp spelling, c classifier, g, i int) string {
	if !c.dscp {
		return fmt.Sprintf("COS-QG%d", g)
	}
	if name, ok := sp.classes[g]; ok {
		return variantName(name, i)
	}
	return variantName(fmt.Sprintf("DSCP-QG%d", g), i)
}

// members are the DSCP (or CoS) values a classifier sends to qos-group g.
func (c classifier) members(g int) []int {
	var out []int
	if !c.dscp {
		if g > 0 {
			out = append(out, g)
		}
		return out
	}
	for d, tc := range c.tc {
		if tc == g {
			out = append(out, d)
		}
	}
	return out
}

// writeClassMaps writes one class map per non-default qos-group of the classifier. Group 0
// is class-default's, so it needs none.
func writeClassMaps(b *strings.Builder, sp spelling, c classifier, i int) {
	field := "cos"
	if c.dscp {
		field = "dscp"
	}
	for g := 1; g < 8; g++ {
		if m := c.members(g); len(m) > 0 {
			fmt.Fprintf(b, "class-map type qos %s %s\n  match %s %s\n", sp.match, className(sp, c, g, i), field, ranges(m))
		}
	}
}

func writeQoSPolicy(b *strings.Builder, sp spelling, c classifier, i int) {
	fmt.Fprintf(b, "policy-map type qos %s\n", variantName(sp.qos, i))
	for _, g := range sp.classOrder {
		if len(c.members(g)) > 0 {
			fmt.Fprintf(b, "  class %s\n    set qos-group %d\n", className(sp, c, g, i), g)
		}
	}
	if sp.classDefault {
		b.WriteString("  class class-default\n    set qos-group 0\n")
	}
}

// writeNetworkPolicy writes the network-qos policy: every system class with the jumbo MTU, or
// only the no-drop ones and the default, and pause on the no-drop classes.
func writeNetworkPolicy(b *strings.Builder, sp spelling, pfc []int) {
	fmt.Fprintf(b, "policy-map type network-qos %s\n", sp.network)
	for g := 7; g >= 0; g-- {
		if sp.noDropClassesOnly && g != 0 && !slices.Contains(pfc, g) {
			continue
		}
		fmt.Fprintf(b, "  class type network-qos %s\n", classSuffix("c-8q-nq", g))
		fmt.Fprintf(b, "    mtu %d\n", MTU)
		if slices.Contains(pfc, g) {
			fmt.Fprintf(b, "    pause pfc-cos %d\n", g)
		}
	}
}

// writeQueuingPolicy lists every egress queue: strict ones with a priority level (the
// highest queue first), the others sharing the remaining bandwidth, and the ECN queues with
// a WRED-ECN action.
func writeQueuingPolicy(b *strings.Builder, sp spelling, s scheduling, i int) {
	fmt.Fprintf(b, "policy-map type queuing %s\n", variantName(sp.queuing, i))
	var shared []int
	for q := 0; q < 8; q++ {
		if !s.strict[q] {
			shared = append(shared, q)
		}
	}
	share := s.weight
	if s.weight == [8]int{} {
		for _, q := range shared {
			share[q] = 100 / len(shared)
		}
		if len(shared) > 0 {
			share[shared[0]] += 100 % len(shared)
		}
	}
	level := 1
	queue := func(q int) {
		fmt.Fprintf(b, "  class type queuing %s\n", classSuffix("c-out-8q-q", q))
		if s.strict[q] {
			fmt.Fprintf(b, "    priority level %d\n", level)
			level++
		} else {
			fmt.Fprintf(b, "    bandwidth remaining percent %d\n", share[q])
		}
		if s.ecn[q] {
			b.WriteString("    " + sp.ecn + "\n")
		}
	}
	for q := 7; q >= 0; q-- {
		if !sp.strictLast || !s.strict[q] {
			queue(q)
		}
	}
	for q := 7; q >= 0 && sp.strictLast; q-- {
		if s.strict[q] {
			queue(q)
		}
	}
}

// ranges spells a value list as NX-OS does: "24-31", "0-7,9".
func ranges(vs []int) string {
	var parts []string
	for i := 0; i < len(vs); {
		j := i
		for j+1 < len(vs) && vs[j+1] == vs[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, itoa(vs[i]))
		} else {
			parts = append(parts, itoa(vs[i])+"-"+itoa(vs[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}
