package nxos

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// CmdPFCOper reads each port's PFC mode and operational state: what a `mode auto` port
// negotiated, which the configuration cannot say.
const CmdPFCOper = "show interface priority-flow-control"

// PFCOper is one port's row: Mode as configured ("Auto", "On", "Off"), whether PFC is
// operational, and the CoS values of the VL bitmap (nil when the row shows none).
type PFCOper struct {
	Mode string
	On   bool
	CoS  []int
	Line string
}

// pfcRow reads `Ethernet1/1/1      Auto On  (8)       0          0`: port, mode, oper, an
// optional hex CoS bitmap in parentheses, then RxPPP and TxPPP, as
// `^(\S+)\s+(Auto|On|Off)\s+(On|Off)\s*(?:\(([0-9A-Fa-f]+)\))?\s+(\d+)\s+(\d+)\s*$` did (by hand: the
// expression was most of the parse). m holds the groups as the expression numbered them.
// \s is [\t\n\f\r ], \S any other byte (complements: the cells are the runs of non-space).
func pfcRow(line string) (m [7]string, ok bool) {
	var cells [6]string
	n := 0
	for i := 0; i < len(line); {
		if pfcSpace(line[i]) {
			if i == 0 {
				return m, false
			}
			i++
			continue
		}
		start := i
		for i < len(line) && !pfcSpace(line[i]) {
			i++
		}
		if n == len(cells) {
			return m, false
		}
		cells[n] = line[start:i]
		n++
	}
	m[0], m[1], m[2] = line, cells[0], cells[1]
	if n < 5 || m[2] != "Auto" && m[2] != "On" && m[2] != "Off" {
		return m, false
	}
	oper, bmap := cells[2], ""
	switch {
	case n == 6: // On (8)
		if oper != "On" && oper != "Off" {
			return m, false
		}
		if bmap, ok = pfcBitmap(cells[3]); !ok {
			return m, false
		}
	case strings.HasPrefix(oper, "Off"): // Off, Off(8)
		oper, bmap = "Off", oper[len("Off"):]
	case strings.HasPrefix(oper, "On"):
		oper, bmap = "On", oper[len("On"):]
	default:
		return m, false
	}
	if n == 5 && bmap != "" {
		if bmap, ok = pfcBitmap(bmap); !ok {
			return m, false
		}
	}
	m[3], m[4], m[5], m[6] = oper, bmap, cells[n-2], cells[n-1]
	return m, pfcDigits(m[5]) && pfcDigits(m[6])
}

func pfcSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

// pfcBitmap is the hex digits of "(hex)".
func pfcBitmap(cell string) (string, bool) {
	if len(cell) < 3 || cell[0] != '(' || cell[len(cell)-1] != ')' {
		return "", false
	}
	hex := cell[1 : len(cell)-1]
	for i := 0; i < len(hex); i++ {
		if c := hex[i] | 0x20; !('0' <= hex[i] && hex[i] <= '9' || 'a' <= c && c <= 'f') {
			return "", false
		}
	}
	return hex, true
}

func pfcDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// ParsePFCOper parses `show interface priority-flow-control`, as text (the `Port Mode
// Oper(VL bmap) RxPPP TxPPP` table) or as `| json` (TABLE_module.ROW_module.TABLE_pfc_interface.
// ROW_pfc_interface with if_name_str, admin, oper; ROW_* an object when there is one row).
func ParsePFCOper(out string) (map[string]PFCOper, error) {
	if err := descriptor.Refused(out); err != nil {
		return nil, fmt.Errorf("%s: %w", CmdPFCOper, err)
	}
	if strings.HasPrefix(strings.TrimSpace(out), "{") {
		return parsePFCOperJSON(out)
	}
	res := map[string]PFCOper{}
	header := false
	for _, raw := range strings.Split(out, "\n") {
		line := strings.TrimSpace(strings.TrimRight(raw, "\r"))
		switch {
		case strings.HasPrefix(line, "Port") && strings.Contains(line, "Oper(VL bmap)"):
			header = true
			continue
		case line == "" || strings.Trim(line, "=") == "" || !header:
			continue
		}
		m, ok := pfcRow(line)
		if !ok {
			return nil, fmt.Errorf("%s: row %q is not port, mode, oper (VL bitmap), RxPPP, TxPPP", CmdPFCOper, line)
		}
		row, err := pfcOper(m[2], m[3], m[4], line)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", CmdPFCOper, m[1], err)
		}
		res[m[1]] = row
	}
	if !header {
		return nil, fmt.Errorf("%s: no `Port Mode Oper(VL bmap)` header in the output", CmdPFCOper)
	}
	return res, nil
}

// pfcOper builds a row from the mode, oper and bitmap cells.
func pfcOper(mode, oper, bmap, line string) (PFCOper, error) {
	row := PFCOper{Mode: mode, On: strings.EqualFold(oper, "on"), Line: line}
	if !row.On && !strings.EqualFold(oper, "off") {
		return row, fmt.Errorf("oper %q is neither On nor Off", oper)
	}
	if bmap != "" {
		v, err := strconv.ParseUint(bmap, 16, 8)
		if err != nil {
			return row, fmt.Errorf("VL bitmap (%s) is not a hex CoS mask", bmap)
		}
		row.CoS = []int{}
		for cos := 0; cos < 8; cos++ {
			if v&(1<<cos) != 0 {
				row.CoS = append(row.CoS, cos)
			}
		}
	}
	return row, nil
}

var operCell = regexp.MustCompile(`^(On|Off)\s*(?:\(([0-9A-Fa-f]+)\))?$`)

func parsePFCOperJSON(out string) (map[string]PFCOper, error) {
	b, err := body(out)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", CmdPFCOper, err)
	}
	var raw struct {
		Table struct {
			Row json.RawMessage `json:"ROW_module"`
		} `json:"TABLE_module"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("%s: unexpected shape: %w", CmdPFCOper, err)
	}
	type module struct {
		Table struct {
			Row json.RawMessage `json:"ROW_pfc_interface"`
		} `json:"TABLE_pfc_interface"`
	}
	mods, err := rows[module](raw.Table.Row)
	if err != nil || len(mods) == 0 {
		return nil, fmt.Errorf("%s: no TABLE_module.ROW_module in the output (%v)", CmdPFCOper, err)
	}
	type row struct {
		Name  string `json:"if_name_str"`
		Admin string `json:"admin"`
		Oper  string `json:"oper"`
	}
	res := map[string]PFCOper{}
	for _, m := range mods {
		rs, err := rows[row](m.Table.Row)
		if err != nil {
			return nil, fmt.Errorf("%s: ROW_pfc_interface: %w", CmdPFCOper, err)
		}
		for _, r := range rs {
			c := operCell.FindStringSubmatch(strings.TrimSpace(r.Oper))
			if r.Name == "" || c == nil {
				return nil, fmt.Errorf("%s: row %+v has no if_name_str or an oper that is not On/Off", CmdPFCOper, r)
			}
			p, err := pfcOper(r.Admin, c[1], c[2], fmt.Sprintf("%s admin %q oper %q", r.Name, r.Admin, r.Oper))
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %w", CmdPFCOper, r.Name, err)
			}
			res[r.Name] = p
		}
	}
	return res, nil
}
