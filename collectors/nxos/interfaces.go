package nxos

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// CmdInterface reads speed, MTU, 802.3x flow control, pause and traffic counters.
const CmdInterface = "show interface | json"

// Interface is one ROW_interface of `show interface | json`.
type Interface struct {
	Name            string
	MTU             int
	InFlowCtrl      string // eth_in_flowctrl: receive pause, "on" | "off"
	OutFlowCtrl     string // eth_out_flowctrl: send pause
	InPause         int64
	OutPause        int64
	HasPauseCounter bool
	// State is "up" or "down"; EthSpeed is eth_speed as printed ("100 Gb/s", "auto-speed"),
	// "" when absent; BWKbit is eth_bw (Kbit/s), 0 when absent. See Speed.
	State    string
	EthSpeed string
	BWKbit   int64
	// Bundle is eth_bundle, the port-channel the port is a member of ("" when none).
	Bundle string
	// Traffic holds the trafficCounters present, under their normalized names.
	Traffic map[string]int64
}

// trafficCounters are a port's traffic counters in `show interface | json`, with the
// normalized names they are kept under, in the order evidence lists them; ParseInterface
// reads them from the row's fields of the same tags, in the same order.
var trafficCounters = [4]struct{ nxos, name string }{
	{"eth_inbytes", "rx_bytes"}, {"eth_outbytes", "tx_bytes"}, {"eth_inucast", "rx_packets"}, {"eth_outucast", "tx_packets"},
}

// decodeInterfaceRows is the ROW_interface rows of `show interface | json` by encoding/json:
// the reference of scanInterfaceRows, and what reads (or rejects, with its error) whatever
// the scan declines.
func decodeInterfaceRows(out string) ([]interfaceRow, error) {
	b, err := body(out)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", CmdInterface, err)
	}
	var raw struct {
		Table *struct {
			Row json.RawMessage `json:"ROW_interface"`
		} `json:"TABLE_interface"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("%s: unexpected shape: %w", CmdInterface, err)
	}
	if raw.Table == nil {
		return nil, fmt.Errorf("%s: no TABLE_interface in the output", CmdInterface)
	}
	rs, err := rows[interfaceRow](raw.Table.Row)
	if err != nil {
		return nil, fmt.Errorf("%s: ROW_interface: %w", CmdInterface, err)
	}
	return rs, nil
}

// interfaceRow is one ROW_interface of `show interface | json`.
type interfaceRow struct {
	Interface string `json:"interface"`
	MTU       num    `json:"eth_mtu"`
	In        string `json:"eth_in_flowctrl"`
	Out       string `json:"eth_out_flowctrl"`
	InPause   num    `json:"eth_inpause"`
	OutPause  num    `json:"eth_outpause"`
	State     string `json:"state"`
	Speed     any    `json:"eth_speed"`
	BW        num    `json:"eth_bw"`
	Bundle    any    `json:"eth_bundle"`
	InBytes   num    `json:"eth_inbytes"`
	OutBytes  num    `json:"eth_outbytes"`
	InUcast   num    `json:"eth_inucast"`
	OutUcast  num    `json:"eth_outucast"`
}

// ParseInterface parses `show interface | json`, keeping front-panel Ethernet ports.
func ParseInterface(out string) (map[string]Interface, error) {
	if err := descriptor.Refused(out); err != nil {
		return nil, fmt.Errorf("%s: %w", CmdInterface, err)
	}
	rs, ok := fastInterfaceRows(out)
	if !ok {
		rs, ok = scanInterfaceRows(out)
	}
	if !ok {
		var err error
		if rs, err = decodeInterfaceRows(out); err != nil {
			return nil, err
		}
	}
	res := make(map[string]Interface, len(rs))
	for _, r := range rs {
		if !IsFrontPanel(r.Interface) {
			continue
		}
		if !r.MTU.Set {
			return nil, fmt.Errorf("%s: %s has no eth_mtu", CmdInterface, r.Interface)
		}
		for _, s := range []string{r.In, r.Out} {
			if s != "on" && s != "off" && s != "desired" {
				return nil, fmt.Errorf("%s: %s has flow control %q (expected on, off or desired)", CmdInterface, r.Interface, s)
			}
		}
		it := Interface{Bundle: sprintTrimmed(r.Bundle), Name: r.Interface, MTU: int(r.MTU.V), InFlowCtrl: r.In, OutFlowCtrl: r.Out,
			InPause: r.InPause.V, OutPause: r.OutPause.V, HasPauseCounter: r.InPause.Set && r.OutPause.Set,
			State: r.State, EthSpeed: sprintTrimmed(r.Speed), BWKbit: r.BW.V}
		for i, n := range [len(trafficCounters)]num{r.InBytes, r.OutBytes, r.InUcast, r.OutUcast} {
			if n.Set {
				if it.Traffic == nil {
					it.Traffic = make(map[string]int64, len(trafficCounters))
				}
				it.Traffic[trafficCounters[i].name] = n.V
			}
		}
		res[r.Interface] = it
	}
	return res, nil
}

// sprintTrimmed is strings.TrimSpace(fmt.Sprint(v)) of a decoded eth_speed or eth_bundle,
// "" for nil; a string is its own text, without fmt.
func sprintTrimmed(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return strings.TrimSpace(x)
	}
	return strings.TrimSpace(fmt.Sprint(v))
}

// Speed is the port's speed in Gb/s with the fields it came from, or why there is none.
// eth_speed is the negotiated speed; a port that is down prints "auto-speed" there and has
// none (its eth_bw is then only the default bandwidth of the port type). eth_bw (Kbit/s) is
// used only when eth_speed is absent and the port is up: it is the configurable `bandwidth`.
func (i Interface) Speed() (float64, string, error) {
	if i.EthSpeed == "" {
		if i.State == "up" && i.BWKbit > 0 {
			return float64(i.BWKbit) / 1e6, fmt.Sprintf("%s no \"eth_speed\"; \"eth_bw\": %d (Kbit/s), state up", i.Name, i.BWKbit), nil
		}
		return 0, "", fmt.Errorf("%s has no eth_speed (state %q)", i.Name, i.State)
	}
	digits, unit, ok := ethSpeedOf(i.EthSpeed)
	if !ok {
		return 0, "", fmt.Errorf("%s shows no speed: \"eth_speed\": %q (state %q)", i.Name, i.EthSpeed, i.State)
	}
	n, err := strconv.ParseFloat(digits, 64)
	if err != nil || n <= 0 {
		return 0, "", fmt.Errorf("%s shows no speed: \"eth_speed\": %q (state %q)", i.Name, i.EthSpeed, i.State)
	}
	mult := 1.0
	switch unit {
	case 'M':
		mult = 1e-3
	case 'T':
		mult = 1e3
	}
	return n * mult, i.Name + ` "eth_speed": ` + strconv.Quote(i.EthSpeed), nil
}

// ethSpeedOf reads eth_speed of a port that has a speed ("40 Gb/s", "100 Gb/s", "1000 Mb/s"):
// the number and the unit prefix M, G or T, as `^(\d+(?:\.\d+)?) ?([MGT])b/s$` did (run for
// every port, with a map and fmt.Sprintf, it was a tenth of buildPort).
func ethSpeedOf(s string) (digits string, unit byte, ok bool) {
	isDigit := func(i int) bool { return i < len(s) && '0' <= s[i] && s[i] <= '9' }
	i := 0
	for isDigit(i) {
		i++
	}
	if i == 0 {
		return "", 0, false
	}
	if i < len(s) && s[i] == '.' {
		j := i + 1
		for isDigit(j) {
			j++
		}
		if j == i+1 {
			return "", 0, false
		}
		i = j
	}
	digits = s[:i]
	if i < len(s) && s[i] == ' ' {
		i++
	}
	if i >= len(s) || (s[i] != 'M' && s[i] != 'G' && s[i] != 'T') {
		return "", 0, false
	}
	return digits, s[i], s[i+1:] == "b/s"
}
