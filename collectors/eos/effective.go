package eos

import (
	"fmt"
	"sort"
	"strings"

	"github.com/roceaudit/roceaudit/collectors/internal/switchcollect"
)

// DefaultDSCPToTC is the EOS default DSCP to traffic-class map, used for every DSCP that no
// `qos map dscp` line moves: 0-7 -> 1, 8-15 -> 0, then each block of 8 to its own class
// (24-31 -> 3, 48-55 -> 6).
func DefaultDSCPToTC() map[int]int {
	m := map[int]int{}
	for d := 0; d < 64; d++ {
		switch tc := d / 8; tc {
		case 0:
			m[d] = 1
		case 1:
			m[d] = 0
		default:
			m[d] = tc
		}
	}
	return m
}

// Effective is an interface's QoS after its service-profile and its own lines are merged
// (interface lines win, as on the switch), over what its port-channel configures.
type Effective struct {
	QoS
	Profile string
	// Lines is the evidence: the interface block, then the profile block, then (for a member
	// of a port-channel) the Port-Channel block and the profile it inherits from there.
	Lines []string
}

// EffectiveQoS merges the qos profile bound to the interface with the interface's own lines.
// ic may be nil (the interface has no configuration block).
//
// A member of a port-channel (`channel-group N`) also gets the QoS of `interface
// Port-ChannelN`: trust, PFC, no-drop priorities, watchdog, tx-queues and, when the member
// binds none, its service-profile. No public source says how EOS combines the two,
// so a member's own setting (its lines or its own service-profile) always wins and the
// port-channel fills only what the member leaves unset.
func (rc *RunningConfig) EffectiveQoS(ic *InterfaceConfig) (Effective, error) {
	var e Effective
	err := rc.effectiveQoS(ic, &e, nil)
	return e, err
}

// effectiveQoS is EffectiveQoS into e, reusing its maps and lines and, when pool is not nil,
// the tx-queues it holds: buildPort's Effective lives for one port (a fresh one a port was
// a seventh of an EOS leaf's allocations).
func (rc *RunningConfig) effectiveQoS(ic *InterfaceConfig, e *Effective, pool *[]TxQueue) error {
	noDrop, txQueues, lines := e.NoDrop, e.TxQueues, e.Lines[:0]
	if noDrop == nil || txQueues == nil {
		noDrop, txQueues = map[int]bool{}, map[int]*TxQueue{}
	}
	clear(noDrop)
	clear(txQueues)
	*e = Effective{Lines: lines}
	e.NoDrop, e.TxQueues = noDrop, txQueues
	if pool != nil {
		*pool = (*pool)[:0]
	}
	if ic == nil {
		e.Lines = nil
		return nil
	}
	e.Lines = append(e.Lines, ic.Lines...)
	var layers []*QoS // lowest precedence first
	var pcLines []string
	if pc := rc.PortChannelOf(ic); pc != nil {
		pcLines = append(pcLines, pc.Lines...)
		if ic.ServiceProfile == "" && pc.ServiceProfile != "" {
			p, err := rc.profile(pc)
			if err != nil {
				return err
			}
			e.Profile = pc.ServiceProfile
			pcLines = append(pcLines, p.Lines...)
			layers = append(layers, p)
		}
		layers = append(layers, &pc.QoS)
	}
	if ic.ServiceProfile != "" {
		p, err := rc.profile(ic)
		if err != nil {
			return err
		}
		e.Profile = ic.ServiceProfile
		e.Lines = append(e.Lines, p.Lines...)
		layers = append(layers, p)
	}
	layers = append(layers, &ic.QoS)
	for _, q := range layers {
		e.merge(q, pool)
	}
	e.Lines = append(e.Lines, pcLines...)
	return nil
}

func (rc *RunningConfig) profile(ic *InterfaceConfig) (*QoS, error) {
	p, ok := rc.Profiles[ic.ServiceProfile]
	if !ok {
		return nil, fmt.Errorf("interface %s uses service-profile %s, which is not in the configuration", ic.Name, ic.ServiceProfile)
	}
	return p, nil
}

func (e *Effective) merge(q *QoS, pool *[]TxQueue) {
	if q.Trust != "" {
		e.Trust = q.Trust
	}
	if q.PFC != nil {
		e.PFC = q.PFC
	}
	for p, nd := range q.NoDrop {
		e.NoDrop[p] = nd
	}
	if q.Watchdog != nil {
		e.Watchdog = q.Watchdog
	}
	if q.WatchdogTimer != "" {
		e.WatchdogTimer = q.WatchdogTimer
	}
	for n, t := range q.TxQueues {
		cur := e.TxQueues[n]
		if cur == nil {
			if pool != nil && len(*pool) < cap(*pool) {
				*pool = (*pool)[:len(*pool)+1]
				cur = &(*pool)[len(*pool)-1]
				*cur = TxQueue{}
			} else {
				cur = &TxQueue{}
			}
			e.TxQueues[n] = cur
		}
		if t.Priority != "" {
			cur.Priority = t.Priority
		}
		cur.ECN = cur.ECN || t.ECN
		if t.ECNLine != "" {
			cur.ECNLine = t.ECNLine
		}
	}
}

// PFCPriorities are the no-drop priorities when PFC is on (and not switched off globally).
func (e Effective) PFCPriorities(allOff bool) []int {
	out := []int{}
	if allOff || e.PFC == nil || !*e.PFC {
		return out
	}
	for p, nd := range e.NoDrop {
		if nd {
			out = append(out, p)
		}
	}
	sort.Ints(out)
	return out
}

// Schedulers gives each tx-queue its discipline. EOS queues are strict priority by default
// (higher number first); `no priority` makes a queue round-robin and with it every
// lower-numbered queue, which is reported as "wrr" (weights come from bandwidth percent).
func (e Effective) Schedulers() map[int]string {
	m := map[int]string{}
	rr := false
	for q := 7; q >= 0; q-- {
		if t := e.TxQueues[q]; t != nil && t.Priority == "round-robin" {
			rr = true
		}
		if rr {
			m[q] = "wrr"
		} else {
			m[q] = "strict"
		}
	}
	return m
}

// SchedulingConfigured says whether any tx-queue of the port states its discipline
// (`priority strict` or `no priority`); when none does, Schedulers is the EOS default only.
func (e Effective) SchedulingConfigured() bool {
	for _, t := range e.TxQueues {
		if t != nil && t.Priority != "" {
			return true
		}
	}
	return false
}

// ECNQueues says which tx-queues mark ECN.
func (e Effective) ECNQueues() map[int]bool {
	m := map[int]bool{}
	for q := 0; q < 8; q++ {
		t := e.TxQueues[q]
		m[q] = t != nil && t.ECN
	}
	return m
}

// lineExcerpt joins evidence lines, keeping only those that matter to match, into one
// allocation of their size (it runs six times a port; a slice of lines and a Join each time
// were a tenth of buildPort).
func lineExcerpt(lines []string, match ...string) string {
	var buf [64]int
	keep, size := buf[:0], 0 // the lines kept, by index
	for i, l := range lines {
		t := strings.TrimSpace(l)
		ok := i == 0 || strings.HasPrefix(t, "interface ") || strings.HasPrefix(t, "qos profile ") || strings.HasPrefix(t, "channel-group ")
		for _, m := range match {
			if ok {
				break
			}
			ok = strings.HasPrefix(t, m)
		}
		if ok {
			keep = append(keep, i)
			size += len(l) + 1
		}
	}
	var b strings.Builder
	b.Grow(size)
	for n, i := range keep {
		if n > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(lines[i])
	}
	return switchcollect.Excerpt(b.String(), 600)
}
