package cumulus

import (
	"strings"

	"github.com/roceaudit/roceaudit/collectors/internal/texttable"
)

// nvDoc is NVUE's text output. It has an optional leading block, either a key tree with
// operational / applied / pending / description columns or a plain table, followed by titled
// sections ("Title" over a line of "="), each holding one table:
//
//	                   operational  applied
//	------------------  -----------  --------
//	mode                lossless     lossless
//	pfc
//	  pfc-priority      3
//
//	RoCE SP->TC mapping and ETS configurations
//	=============================================
//	       switch-prio  traffic-class  scheduler-weight
//	    -  -----------  -------------  ----------------
//	    3  3            3              DWRR-50%
type nvDoc struct {
	kv       []nvKV   // key rows of the leading block, in order; keys are dotted paths
	lead     *nvTable // the leading block when it is a plain table
	sections []nvSection
}

// nvKV is one key row: "pfc.pfc-priority" with its cells by column name.
type nvKV struct {
	key   string
	cells map[string]string
	line  string
}

type nvSection struct {
	title string
	table nvTable
}

type nvTable struct {
	header []string
	rows   []nvRow
}

type nvRow struct {
	cells []string
	line  string
}

// kvColumns are the column headers of a key tree; any other header makes the block a table.
var kvColumns = map[string]bool{"operational": true, "applied": true, "pending": true, "description": true}

// parseNV splits NVUE text into its parts. It never fails: what it cannot place is left out,
// and the per-command parsers reject output that lacks what they need.
func parseNV(out string) nvDoc {
	lines := texttable.SplitLines(out)
	var titles []int
	for i := 0; i+1 < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "" && isUnderline(lines[i+1]) {
			titles = append(titles, i)
			i++ // the underline cannot be a title itself
		}
	}
	var doc nvDoc
	leadEnd := len(lines)
	if len(titles) > 0 {
		leadEnd = titles[0]
	}
	if header, spans, rows := parseBlock(lines[:leadEnd]); spans != nil {
		if isKVHeader(header) {
			doc.kv = kvRows(header, spans, rows)
		} else {
			doc.lead = &nvTable{header: header, rows: tableRows(spans, rows)}
		}
	}
	for n, t := range titles {
		end := len(lines)
		if n+1 < len(titles) {
			end = titles[n+1]
		}
		s := nvSection{title: strings.TrimSpace(lines[t])}
		if header, spans, rows := parseBlock(lines[t+2 : end]); spans != nil {
			s.table = nvTable{header: header, rows: tableRows(spans, rows)}
		}
		doc.sections = append(doc.sections, s)
	}
	return doc
}

func isUnderline(l string) bool {
	l = strings.TrimSpace(l)
	return len(l) >= 3 && strings.Trim(l, "=") == ""
}

func isKVHeader(header []string) bool {
	if len(header) < 2 || header[0] != "" {
		return false
	}
	for _, h := range header[1:] {
		if !kvColumns[h] {
			return false
		}
	}
	return true
}

// parseBlock finds the first dash rule of a block; the non-blank line above it is the header
// (empty when the rule comes first) and every non-blank line below it is a row.
func parseBlock(lines []string) (header []string, spans []texttable.Span, rows []string) {
	for i, l := range lines {
		spans = texttable.RuleSpans(l)
		if spans == nil {
			continue
		}
		header = make([]string, len(spans))
		if i > 0 && strings.TrimSpace(lines[i-1]) != "" {
			header = texttable.CutCells(lines[i-1], spans)
		}
		for _, r := range lines[i+1:] {
			if strings.TrimSpace(r) != "" {
				rows = append(rows, r)
			}
		}
		return header, spans, rows
	}
	return nil, nil, nil
}

func tableRows(spans []texttable.Span, lines []string) []nvRow {
	var rows []nvRow
	for _, l := range lines {
		rows = append(rows, nvRow{cells: texttable.CutCells(l, spans), line: l})
	}
	return rows
}

// kvRows turns key-tree lines into dotted keys, by indentation (two spaces a level). A line
// whose key cell is blank continues the value of the row above (NVUE wraps long values).
func kvRows(header []string, spans []texttable.Span, lines []string) []nvKV {
	var out []nvKV
	var path []string
	for _, l := range lines {
		cells := texttable.CutCells(l, spans)
		indent := len(l) - len(strings.TrimLeft(l, " "))
		if cells[0] == "" || indent >= spans[0].End {
			if len(out) > 0 {
				prev := out[len(out)-1]
				for c := 1; c < len(cells); c++ {
					if cells[c] != "" {
						prev.cells[header[c]] = strings.TrimSpace(prev.cells[header[c]] + " " + cells[c])
					}
				}
				prev.line += "\n" + l
				out[len(out)-1] = prev
			}
			continue
		}
		level := indent / 2
		if level > len(path) {
			level = len(path)
		}
		path = append(path[:level], cells[0])
		kv := nvKV{key: strings.Join(path, "."), cells: map[string]string{}, line: l}
		for c := 1; c < len(cells); c++ {
			kv.cells[header[c]] = cells[c]
		}
		out = append(out, kv)
	}
	return out
}

// value is a key's operational value, or its applied value when NVUE reports no operational
// one (as for `enable` in `nv show qos roce`).
func (d nvDoc) value(key string) (string, bool) {
	for _, kv := range d.kv {
		if kv.key == key {
			if v := kv.cells["operational"]; v != "" {
				return v, true
			}
			return kv.cells["applied"], true
		}
	}
	return "", false
}

// values returns every value of a repeated key ("[switch-priority]").
func (d nvDoc) values(key string) []string {
	var out []string
	for _, kv := range d.kv {
		if kv.key == key {
			v := kv.cells["operational"]
			if v == "" {
				v = kv.cells["applied"]
			}
			out = append(out, v)
		}
	}
	return out
}

// line is the raw line of a key, for evidence.
func (d nvDoc) line(key string) string {
	for _, kv := range d.kv {
		if kv.key == key {
			return strings.TrimRight(kv.line, " ")
		}
	}
	return ""
}

// section finds the first section whose title contains any of the fragments
// (case-insensitive).
func (d nvDoc) section(fragments ...string) (nvSection, bool) {
	for _, s := range d.sections {
		t := strings.ToLower(s.title)
		for _, f := range fragments {
			if strings.Contains(t, strings.ToLower(f)) {
				return s, true
			}
		}
	}
	return nvSection{}, false
}

// column finds a header cell case-insensitively, trying each name; -1 when absent.
func (t nvTable) column(names ...string) int {
	for _, n := range names {
		for i, h := range t.header {
			if strings.EqualFold(h, n) {
				return i
			}
		}
	}
	return -1
}
