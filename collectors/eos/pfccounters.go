package eos

import (
	"encoding/json"
	"fmt"

	"github.com/roceaudit/roceaudit/collectors/internal/jsonscan"
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
	if err := descriptor.Refused(out); err != nil {
		return nil, fmt.Errorf("%s: %w", CmdPFCCounters, err)
	}
	if res, ok := scanPFCCounters(out); ok {
		return res, nil
	}
	return decodePFCCounters(out)
}

// decodePFCCounters is ParsePFCCounters by encoding/json: the reference of scanPFCCounters,
// and what reads (or rejects, with its error) whatever the scan declines.
func decodePFCCounters(out string) (map[string]PFCCounters, error) {
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

var pfcCounterFields = []string{"rxFrames", "txFrames"}

// scanPFCCounters is decodePFCCounters without encoding/json's reflection (a third of the
// parse was reflection, the rest its two passes). It declines an interface given twice, a
// member matching a field only by case folding or given twice, a null, a count that is not
// an int64, an interface without both counts: encoding/json then answers, errors included.
func scanPFCCounters(out string) (map[string]PFCCounters, bool) {
	sc := jsonscan.New(out)
	var res map[string]PFCCounters
	ok := sc.Struct([]string{"interfaceCounters"}, func(int) bool {
		res = map[string]PFCCounters{}
		return sc.Object(func(name string) bool {
			if _, twice := res[name]; twice {
				return false
			}
			var c PFCCounters
			var seen int
			ok := sc.Struct(pfcCounterFields, func(f int) bool {
				var ok bool
				seen |= 1 << f
				if f == 0 {
					c.RxFrames, ok = sc.Int64()
				} else {
					c.TxFrames, ok = sc.Int64()
				}
				return ok
			})
			res[name] = c
			return ok && seen == 3
		})
	})
	return res, ok && res != nil && sc.End()
}
