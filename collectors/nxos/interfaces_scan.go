package nxos

import (
	"strconv"

	"github.com/roceaudit/roceaudit/collectors/internal/jsonscan"
)

// scanInterfaceRows is decodeInterfaceRows without encoding/json (which read the reply three
// times over: the envelope, the table, then each row through reflection and num's
// UnmarshalJSON; a fifth of an NX-OS leaf's collection): the rows scanned in place into the
// same struct. It declines (and the decoder then answers, errors included) the NX-API
// envelope, a member matching a field only by case folding or given twice, a null row or
// field, a string with an escape, a count that is not a whole number, no ROW_interface.
func scanInterfaceRows(out string) ([]interfaceRow, bool) {
	sc := jsonscan.New(out)
	var rs []interfaceRow
	row := func() bool {
		var r interfaceRow
		if !scanInterfaceRow(sc, &r) {
			return false
		}
		rs = append(rs, r)
		return true
	}
	ok := sc.Struct([]string{"output", "TABLE_interface"}, func(f int) bool {
		if f == 0 {
			return false // the NX-API envelope
		}
		return sc.Struct([]string{"ROW_interface"}, func(int) bool {
			switch sc.Peek() {
			case '{':
				return row()
			case '[':
				return sc.Array(func() bool { return sc.Peek() == '{' && row() })
			}
			return false
		})
	})
	return rs, ok && sc.End() && rs != nil
}

var interfaceRowFields = []string{"interface", "eth_mtu", "eth_in_flowctrl", "eth_out_flowctrl", "eth_inpause",
	"eth_outpause", "state", "eth_speed", "eth_bw", "eth_bundle", "eth_inbytes", "eth_outbytes", "eth_inucast", "eth_outucast"}

func scanInterfaceRow(sc *jsonscan.Scanner, r *interfaceRow) bool {
	strs := [...]*string{0: &r.Interface, 2: &r.In, 3: &r.Out, 6: &r.State}
	nums := [...]*num{1: &r.MTU, 4: &r.InPause, 5: &r.OutPause, 8: &r.BW, 10: &r.InBytes, 11: &r.OutBytes, 12: &r.InUcast, 13: &r.OutUcast}
	return sc.Struct(interfaceRowFields, func(f int) bool {
		var ok bool
		switch {
		case f < len(strs) && strs[f] != nil:
			*strs[f], ok = sc.Str()
		case f < len(nums) && nums[f] != nil:
			*nums[f], ok = scanNum(sc)
		case f == 7:
			r.Speed, ok = scanAny(sc)
		default: // 9
			r.Bundle, ok = scanAny(sc)
		}
		return ok
	})
}

// scanNum reads a value as num's UnmarshalJSON does: a whole number, as a JSON number or a
// string, or null or "null" (not set); anything else is an error, so a decline.
func scanNum(sc *jsonscan.Scanner) (num, bool) {
	var s string
	var ok bool
	switch c := sc.Peek(); {
	case c == '"':
		s, ok = sc.Str()
	case c == 'n':
		raw, ok := sc.Raw()
		return num{}, ok && raw == "null"
	default:
		s, ok = sc.Number()
	}
	if !ok {
		return num{}, false
	}
	if s == "null" {
		return num{}, true
	}
	v, err := strconv.ParseInt(s, 10, 64)
	return num{V: v, Set: true}, err == nil
}

// scanAny reads a string, a number (float64, as encoding/json decodes into any) or null.
func scanAny(sc *jsonscan.Scanner) (any, bool) {
	switch c := sc.Peek(); {
	case c == '"':
		return sc.Str()
	case c == 'n':
		raw, ok := sc.Raw()
		return nil, ok && raw == "null"
	case c == '-' || '0' <= c && c <= '9':
		tok, ok := sc.Number()
		if !ok {
			return nil, false
		}
		f, err := strconv.ParseFloat(tok, 64)
		return f, err == nil
	}
	return nil, false
}
