package eos

import (
	"encoding/json"
	"fmt"
)

// CmdPFCCounters reads PFC frame counters (hardware platforms only; cEOS/vEOS refuse it).
const CmdPFCCounters = "show priority-flow-control counters | json"

// PFCCounters are the PFC frames an interface received and sent.
type PFCCounters struct {
	RxFrames int64
	TxFrames int64
}

// ParsePFCCounters parses `show priority-flow-control counters | json` (revision 3 shape:
// interfaceCounters.<If>.rxFrames/txFrames).
func ParsePFCCounters(out string) (map[string]PFCCounters, error) {
	if err := refused(out); err != nil {
		return nil, fmt.Errorf("%s: %w", CmdPFCCounters, err)
	}
	var raw struct {
		Counters map[string]struct {
			Rx *int64 `json:"rxFrames"`
			Tx *int64 `json:"txFrames"`
		} `json:"interfaceCounters"`
	}
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		return nil, fmt.Errorf("%s: not JSON: %w", CmdPFCCounters, err)
	}
	if raw.Counters == nil {
		return nil, fmt.Errorf("%s: no \"interfaceCounters\" object in the output", CmdPFCCounters)
	}
	res := map[string]PFCCounters{}
	for name, c := range raw.Counters {
		if c.Rx == nil || c.Tx == nil {
			return nil, fmt.Errorf("%s: %s lacks rxFrames/txFrames", CmdPFCCounters, name)
		}
		res[name] = PFCCounters{RxFrames: *c.Rx, TxFrames: *c.Tx}
	}
	return res, nil
}
