package nxos

import (
	"encoding/json"
	"fmt"
)

// CmdInterface reads MTU, 802.3x flow control and pause counters.
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
}

// ParseInterface parses `show interface | json`, keeping front-panel Ethernet ports.
func ParseInterface(out string) (map[string]Interface, error) {
	if err := cliError(out); err != nil {
		return nil, fmt.Errorf("%s: %w", CmdInterface, err)
	}
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
	type row struct {
		Interface string `json:"interface"`
		MTU       num    `json:"eth_mtu"`
		In        string `json:"eth_in_flowctrl"`
		Out       string `json:"eth_out_flowctrl"`
		InPause   num    `json:"eth_inpause"`
		OutPause  num    `json:"eth_outpause"`
	}
	rs, err := rows[row](raw.Table.Row)
	if err != nil {
		return nil, fmt.Errorf("%s: ROW_interface: %w", CmdInterface, err)
	}
	res := map[string]Interface{}
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
		res[r.Interface] = Interface{Name: r.Interface, MTU: int(r.MTU.V), InFlowCtrl: r.In, OutFlowCtrl: r.Out,
			InPause: r.InPause.V, OutPause: r.OutPause.V, HasPauseCounter: r.InPause.Set && r.OutPause.Set}
	}
	return res, nil
}
