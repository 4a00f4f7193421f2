package linux

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/roceaudit/roceaudit/topology"
)

var (
	// "PORT_ACTIVE (4)", "4096 (5)", "4X (2)", "25.0 Gbps (32)": a label and its numeric code.
	widthRe = regexp.MustCompile(`^(\d+)X$`)
	speedRe = regexp.MustCompile(`^([\d.]+) Gbps$`)
)

// ParseIbvDevinfo reads `ibv_devinfo -v`: per device port the state, physical state, link
// layer, max/active MTU and, when both are reported, the speed (active_width x active_speed).
// Empty text (no RDMA device) gives an empty map.
func ParseIbvDevinfo(text string) (map[DevPort]topology.RDMAPort, error) {
	out := map[DevPort]topology.RDMAPort{}
	var cur *devinfoPort
	dev := ""
	finish := func() error {
		if cur == nil {
			return nil
		}
		p, err := cur.result()
		if err != nil {
			return err
		}
		out[cur.dp] = p
		cur = nil
		return nil
	}
	sawDevice := false
	n := -1
	for line := range strings.SplitSeq(text, "\n") {
		n++
		key, val, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok {
			continue // flag lists, "tag matching not supported", blank lines
		}
		val = strings.TrimSpace(val)
		switch key {
		case "hca_id":
			if err := finish(); err != nil {
				return nil, err
			}
			if val == "" {
				return nil, fmt.Errorf("ibv_devinfo line %d: hca_id without a device name", n+1)
			}
			dev, sawDevice = val, true
			continue
		case "port":
			if err := finish(); err != nil {
				return nil, err
			}
			if dev == "" {
				return nil, fmt.Errorf("ibv_devinfo line %d: port block before any hca_id", n+1)
			}
			p, err := strconv.Atoi(val)
			if err != nil || p < 1 || p > 255 {
				return nil, fmt.Errorf("ibv_devinfo line %d: port %q is not a port number", n+1, val)
			}
			cur = &devinfoPort{dp: DevPort{Dev: dev, Port: p}, seen: map[string]bool{}}
			continue
		}
		if cur == nil {
			continue // device-level attributes
		}
		if err := cur.set(key, val); err != nil {
			return nil, fmt.Errorf("ibv_devinfo %s line %d: %w", cur.dp, n+1, err)
		}
	}
	if err := finish(); err != nil {
		return nil, err
	}
	if !sawDevice && strings.TrimSpace(text) != "" {
		return nil, fmt.Errorf("ibv_devinfo: no hca_id block in the output (expected `hca_id:<TAB>DEV`)")
	}
	return out, nil
}

// devinfoPort accumulates one port block.
type devinfoPort struct {
	dp           DevPort
	p            topology.RDMAPort
	seen         map[string]bool
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

func (a *devinfoPort) set(key, val string) error {
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
		case "active_width":
			if w := widthRe.FindStringSubmatch(label); w != nil {
				a.width, _ = strconv.ParseFloat(w[1], 64)
			}
		case "active_speed":
			if s := speedRe.FindStringSubmatch(label); s != nil {
				a.speed, _ = strconv.ParseFloat(s[1], 64)
			}
		}
	case "link_layer":
		if val == "" {
			return fmt.Errorf("empty link_layer")
		}
		a.p.LinkLayer = val
	default:
		return nil
	}
	a.seen[key] = true
	return nil
}

func (a *devinfoPort) result() (topology.RDMAPort, error) {
	for _, k := range []string{"state", "max_mtu", "active_mtu", "link_layer"} {
		if !a.seen[k] {
			return topology.RDMAPort{}, fmt.Errorf("ibv_devinfo %s: port block has no %s line", a.dp, k)
		}
	}
	if a.width > 0 && a.speed > 0 {
		a.p.SpeedGbps = a.width * a.speed
	}
	return a.p, nil
}
