package cumulus

import (
	"fmt"

	"github.com/roceaudit/roceaudit/topology"
)

// PFC is `nv show interface <if> qos pfc`: whether the port sends (tx) and honours (rx) PFC,
// and on which switch priorities when the output lists them.
type PFC struct {
	RX, TX           bool
	SwitchPriorities []int
	Listed           bool // the output names the switch priorities
	Excerpt          string
}

// ParsePFC parses `nv show interface <if> qos pfc`. Switch priorities are read from
// `[switch-priority]` rows (one per priority, as the PFC profile prints them) or a
// `switch-priority` row.
func ParsePFC(out string) (PFC, error) {
	doc := parseNV(out)
	var p PFC
	var err error
	if p.RX, p.TX, err = rxTx(doc, TmplPFC); err != nil {
		return PFC{}, err
	}
	vals := doc.values("[switch-priority]")
	key := "[switch-priority]"
	if len(vals) == 0 {
		vals, key = doc.values("switch-priority"), "switch-priority"
	}
	p.SwitchPriorities = []int{}
	for _, v := range vals {
		ps, err := parseList(v, 7)
		if err != nil {
			return PFC{}, fmt.Errorf("%s: %s: %w", TmplPFC, key, err)
		}
		p.SwitchPriorities = append(p.SwitchPriorities, ps...)
		p.Listed = true
	}
	p.Excerpt = joinLines(doc.line("rx"), doc.line("tx"), doc.line(key))
	return p, nil
}

// ParseLinkPause parses `nv show interface <if> qos link-pause` into 802.3x pause rx/tx.
func ParseLinkPause(out string) (topology.Pause, string, error) {
	doc := parseNV(out)
	rx, tx, err := rxTx(doc, TmplLinkPause)
	if err != nil {
		return topology.Pause{}, "", err
	}
	return topology.Pause{RX: rx, TX: tx}, joinLines(doc.line("rx"), doc.line("tx")), nil
}

func rxTx(doc nvDoc, cmd string) (rx, tx bool, err error) {
	for _, d := range []struct {
		key string
		dst *bool
	}{{"rx", &rx}, {"tx", &tx}} {
		v, ok := doc.value(d.key)
		if !ok {
			return false, false, fmt.Errorf("%s: no %s row in the output", cmd, d.key)
		}
		if *d.dst, err = parseBool(v); err != nil {
			return false, false, fmt.Errorf("%s: %s: %w", cmd, d.key, err)
		}
	}
	return rx, tx, nil
}

// ParsePFCWatchdog parses `nv show interface <if> qos pfc-watchdog`: whether the watchdog is
// on for the port (it then watches every traffic class, listed in "PFC WD Status").
func ParsePFCWatchdog(out string) (bool, string, error) {
	doc := parseNV(out)
	key := "state"
	v, ok := doc.value(key)
	if !ok {
		key = "enable"
		v, ok = doc.value(key)
	}
	if !ok {
		return false, "", fmt.Errorf("%s: no state row in the output", TmplPFCWatchdog)
	}
	on, err := parseBool(v)
	if err != nil {
		return false, "", fmt.Errorf("%s: state: %w", TmplPFCWatchdog, err)
	}
	return on, doc.line(key), nil
}
