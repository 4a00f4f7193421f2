package linux

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/roceaudit/roceaudit/topology"
)

// ParseIbvDevinfo reads `ibv_devinfo -v`: per device port the state, physical state, link
// layer, max/active MTU and, when both are reported, the speed (active_width x active_speed).
// Empty text (no RDMA device) gives an empty map.
func ParseIbvDevinfo(text string) (map[DevPort]topology.RDMAPort, error) {
	ports, _, err := parseIbvDevinfo(text, false)
	return ports, err
}

// devinfoLine is a line some port's devinfo excerpt keeps: an hca_id line of dev (every
// port of dev keeps it) or a line of dev's port block whose port line reads port.
type devinfoLine struct {
	dev, line, port string
	hca             bool
}

// parseIbvDevinfo is ParseIbvDevinfo and, when cut is set, the lines of every port's excerpt
// (see devinfoExcerpt) in output order: cutting them per device and then reading each
// port's device again was as much CPU as the parse, which splits the same lines. One slice
// for all devices: a slice per device grew through as many allocations as it has lines.
func parseIbvDevinfo(text string, cut bool) (map[DevPort]topology.RDMAPort, []devinfoLine, error) {
	out := map[DevPort]topology.RDMAPort{}
	var lines []devinfoLine
	if cut {
		lines = make([]devinfoLine, 0, 72) // 9 a port: an 8-rail host's in one allocation
	}
	var cur devinfoPort // in a port block when cur.dp.Dev != ""
	dev := ""
	lineDev, linePort := "", "" // the excerpt's block: the hca_id and port values as written
	finish := func() error {
		if cur.dp.Dev == "" {
			return nil
		}
		p, err := cur.result()
		if err != nil {
			return err
		}
		out[cur.dp] = p
		cur = devinfoPort{}
		return nil
	}
	sawDevice := false
	n := 0
	for rest, more := text, true; more; {
		var line string
		line, rest, more = nextLine(rest)
		n++
		key, val, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok {
			continue // flag lists, "tag matching not supported", blank lines
		}
		if cur.dp.Dev == "" && linePort == "" && key != "hca_id" && key != "port" {
			continue // device-level attributes, most of the output: neither parsed nor kept
		}
		val = strings.TrimSpace(val)
		switch key {
		case "hca_id":
			if cut {
				lineDev, linePort = val, ""
				lines = append(lines, devinfoLine{dev: val, line: line, hca: true})
			}
			if err := finish(); err != nil {
				return nil, nil, err
			}
			if val == "" {
				return nil, nil, fmt.Errorf("ibv_devinfo line %d: hca_id without a device name", n)
			}
			dev, sawDevice = val, true
			continue
		case "port":
			if cut && lineDev != "" {
				linePort = val
				lines = append(lines, devinfoLine{dev: lineDev, line: line, port: val})
			}
			if err := finish(); err != nil {
				return nil, nil, err
			}
			if dev == "" {
				return nil, nil, fmt.Errorf("ibv_devinfo line %d: port block before any hca_id", n)
			}
			p, err := strconv.Atoi(val)
			if err != nil || p < 1 || p > 255 {
				return nil, nil, fmt.Errorf("ibv_devinfo line %d: port %q is not a port number", n, val)
			}
			cur = devinfoPort{dp: DevPort{Dev: dev, Port: p}}
			continue
		}
		k := devinfoKeyIndex(key)
		if cut && k >= 0 && lineDev != "" && linePort != "" {
			lines = append(lines, devinfoLine{dev: lineDev, line: line, port: linePort})
		}
		if cur.dp.Dev == "" {
			continue // device-level attributes
		}
		if err := cur.set(k, key, val); err != nil {
			return nil, nil, fmt.Errorf("ibv_devinfo %s line %d: %w", cur.dp, n, err)
		}
	}
	if err := finish(); err != nil {
		return nil, nil, err
	}
	if !sawDevice && strings.TrimSpace(text) != "" {
		return nil, nil, fmt.Errorf("ibv_devinfo: no hca_id block in the output (expected `hca_id:<TAB>DEV`)")
	}
	return out, lines, nil
}

// devinfoKeys are the port attributes read (and kept in the excerpt).
var devinfoKeys = [...]string{"state", "phys_state", "max_mtu", "active_mtu", "link_layer", "active_width", "active_speed"}

// devinfoKeyIndex is key's index in devinfoKeys, -1 for none.
func devinfoKeyIndex(key string) int {
	for i, k := range devinfoKeys {
		if key == k {
			return i
		}
	}
	return -1
}

// devinfoPort accumulates one port block.
type devinfoPort struct {
	dp           DevPort
	p            topology.RDMAPort
	seen         uint8 // by devinfoKeys index: a map a port was an allocation each
	width, speed float64
}

// splitLabelCode is the LABEL of `LABEL (CODE)` (CODE digits, any space before the
// parenthesis not part of LABEL, LABEL not empty), as the expression ^(.+?)\s*\((\d+)\)$
// reads it; by hand, since a port's six such lines made that expression most of
// ibv_devinfo's parse.
func splitLabelCode(val string) (string, bool) {
	open := strings.LastIndexByte(val, '(')
	if open < 1 || !strings.HasSuffix(val, ")") || !allDigits(val[open+1:len(val)-1]) {
		return "", false
	}
	label := strings.TrimRight(val[:open], " \t\n\f\r")
	if label == "" {
		_, n := utf8.DecodeRuneInString(val) // .+? takes one character when all else is space
		label = val[:n]
	}
	return label, strings.IndexByte(label, '\n') < 0 // . is not a newline
}

// set reads the attribute key, devinfoKeys[k] (k < 0 for another key).
func (a *devinfoPort) set(k int, key, val string) error {
	if k < 0 {
		return nil
	}
	switch key {
	case "state", "phys_state", "max_mtu", "active_mtu", "active_width", "active_speed":
		label, ok := splitLabelCode(val)
		if !ok {
			return fmt.Errorf("%s %q: expected `LABEL (CODE)`", key, val)
		}
		switch key {
		case "state":
			a.p.State = label
		case "phys_state":
			a.p.PhysState = label
		case "max_mtu", "active_mtu":
			mtu, err := strconv.Atoi(label)
			if err != nil {
				// "invalid MTU (0)": keep the port, its MTU reads as 0 and checks will say so.
				mtu = 0
			}
			if key == "max_mtu" {
				a.p.MaxMTU = mtu
			} else {
				a.p.ActiveMTU = mtu
			}
		case "active_width": // "4X": ^(\d+)X$, by hand (a regexp's submatches were allocations)
			if w, ok := strings.CutSuffix(label, "X"); ok && allDigits(w) {
				a.width, _ = strconv.ParseFloat(w, 64)
			}
		case "active_speed": // "25.0 Gbps": ^([\d.]+) Gbps$
			if s, ok := strings.CutSuffix(label, " Gbps"); ok && s != "" && strings.Trim(s, "0123456789.") == "" {
				a.speed, _ = strconv.ParseFloat(s, 64)
			}
		}
	case "link_layer":
		if val == "" {
			return fmt.Errorf("empty link_layer")
		}
		a.p.LinkLayer = val
	}
	a.seen |= 1 << k
	return nil
}

func (a *devinfoPort) result() (topology.RDMAPort, error) {
	for _, k := range [...]int{0, 2, 3, 4} { // state, max_mtu, active_mtu, link_layer
		if a.seen&(1<<k) == 0 {
			return topology.RDMAPort{}, fmt.Errorf("ibv_devinfo %s: port block has no %s line", a.dp, devinfoKeys[k])
		}
	}
	if a.width > 0 && a.speed > 0 {
		a.p.SpeedGbps = a.width * a.speed
	}
	return a.p, nil
}
