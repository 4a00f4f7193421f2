package eos

import (
	"strconv"

	"github.com/roceaudit/roceaudit/collectors/internal/jsonscan"
)

// scanInterfaces is ParseInterfaces' decoding of `show interfaces | json` without
// encoding/json's reflection (a quarter of an EOS leaf's collection): the document scanned
// in place into the same struct. It declines (and encoding/json then decodes, errors
// included) what it is not sure to read as encoding/json does: a member given twice, a
// member that matches a field only case-insensitively or has a non-ASCII name (encoding/json
// folds case), a null, a number where it is not a whole number or out of range.
func scanInterfaces(out string) (interfacesJSON, bool) {
	sc := jsonscan.New(out)
	var raw interfacesJSON
	ok := sc.Struct([]string{"interfaces"}, func(int) bool {
		if sc.Peek() != '{' {
			return false
		}
		raw.Interfaces = map[string]interfaceJSON{}
		return sc.Object(func(name string) bool {
			if _, twice := raw.Interfaces[name]; twice {
				return false
			}
			var it interfaceJSON
			ok := scanInterface(sc, &it)
			raw.Interfaces[name] = it
			return ok
		})
	})
	return raw, ok && sc.End() && raw.Interfaces != nil
}

var (
	interfaceFields = []string{"mtu", "forwardingModel", "bandwidth", "interfaceStatus", "interfaceCounters"}
	counterFields   = []string{"inOctets", "outOctets", "inUcastPkts", "outUcastPkts", "inputErrorsDetail", "outputErrorsDetail"}
)

func scanInterface(sc *jsonscan.Scanner, it *interfaceJSON) bool {
	return sc.Struct(interfaceFields, func(f int) bool {
		var ok bool
		switch f {
		case 0:
			var n int64
			if n, ok = sc.Int64(); ok {
				mtu := int(n)
				it.MTU = &mtu
			}
		case 1:
			it.ForwardingModel, ok = sc.Str()
		case 2:
			var tok string
			if tok, ok = sc.Number(); ok {
				var bw float64
				bw, err := strconv.ParseFloat(tok, 64)
				it.Bandwidth, ok = &bw, err == nil
			}
		case 3:
			it.Status, ok = sc.Str()
		default:
			it.Counters = &countersJSON{}
			ok = scanCounters(sc, it.Counters)
		}
		return ok
	})
}

func scanCounters(sc *jsonscan.Scanner, c *countersJSON) bool {
	var vals [6]int64 // one allocation for the interface's counts, not one each
	return sc.Struct(counterFields, func(f int) bool {
		switch f {
		case 4:
			c.In = &struct {
				RxPause *int64 `json:"rxPause"`
			}{}
			return sc.Struct([]string{"rxPause"}, func(int) bool { return counter(sc, &c.In.RxPause, &vals[4]) })
		case 5:
			c.Out = &struct {
				TxPause *int64 `json:"txPause"`
			}{}
			return sc.Struct([]string{"txPause"}, func(int) bool { return counter(sc, &c.Out.TxPause, &vals[5]) })
		}
		return counter(sc, []**int64{&c.InOctets, &c.OutOctets, &c.InUcastPkts, &c.OutUcastPkts}[f], &vals[f])
	})
}

// counter reads a count into n and points into at it.
func counter(sc *jsonscan.Scanner, into **int64, n *int64) bool {
	var ok bool
	*n, ok = sc.Int64()
	*into = n
	return ok
}
