package cumulus

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Link is what `nv show interface <if> link` says about the MTU and the speed. The MTU is
// the operational value (what the port runs), or the applied one when NVUE reports no
// operational value. The speed is only ever the operational one: the applied value is a
// setting ("auto", or a speed the link may not have come up at).
type Link struct {
	MTU         int
	FromApplied bool
	Line        string
	// Speed is the operational speed in Gb/s; SpeedErr says why there is none (no speed row,
	// a blank operational cell as on a link that is down, or a value that is not a speed).
	Speed     float64
	SpeedErr  error
	SpeedLine string
}

// ErrNoOperationalSpeed is the SpeedErr of a port whose operational speed cell is blank.
var ErrNoOperationalSpeed = errors.New("no operational speed (the link is down)")

// ParseLink parses `nv show interface <if> link`. It fails only without an MTU; a missing
// speed is Link.SpeedErr.
func ParseLink(out string) (Link, error) {
	doc := parseNV(out)
	var l Link
	found := false
	for _, kv := range doc.kv {
		if kv.key != "mtu" {
			continue
		}
		v := kv.cells["operational"]
		if v == "" {
			v, l.FromApplied = kv.cells["applied"], true
		}
		n, err := parseNumber(v)
		if err != nil || n == 0 {
			return Link{}, fmt.Errorf("%s: mtu %q is not a number", TmplLink, v)
		}
		l.MTU, l.Line, found = n, doc.line("mtu"), true
		break
	}
	if !found {
		return Link{}, fmt.Errorf("%s: no mtu row in the output", TmplLink)
	}
	l.SpeedErr = errors.New("no speed row in the output")
	for _, kv := range doc.kv {
		if kv.key != "speed" {
			continue
		}
		l.SpeedLine = doc.line("speed")
		v := strings.TrimSpace(kv.cells["operational"])
		if v == "" {
			l.SpeedErr = ErrNoOperationalSpeed
			break
		}
		l.Speed, l.SpeedErr = parseSpeed(v)
		break
	}
	return l, nil
}

// speedText is an NVUE link speed: 10M, 100M, 1G, 25G, 100G, 400G, 800G (NVUE's speed values).
var speedText = regexp.MustCompile(`^(\d+(?:\.\d+)?)([MGT])$`)

// parseSpeed reads an NVUE link speed into Gb/s.
func parseSpeed(s string) (float64, error) {
	m := speedText.FindStringSubmatch(strings.ToUpper(s))
	if m == nil {
		return 0, fmt.Errorf("operational speed %q is not a speed such as 100G", s)
	}
	n, err := strconv.ParseFloat(m[1], 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("operational speed %q is not a speed such as 100G", s)
	}
	return n * map[string]float64{"M": 1e-3, "G": 1, "T": 1e3}[m[2]], nil
}
