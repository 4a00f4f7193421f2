package sonic

import "strings"

// textTable is one Python-tabulate "simple" table as sonic-utilities prints it: a header
// line, a rule of dash runs, then rows until a blank line, a rule, or the end.
type textTable struct {
	header []string
	rows   []textRow
}

type textRow struct {
	cells []string
	line  string
}

// span is one column: the character range of its dash run in the rule line.
type span struct{ start, end int }

// parseTables finds every table in out. Columns are cut at the rule's dash runs, not at
// whitespace, so empty cells, values with single spaces and right-aligned numbers all land in
// the right column. A rule with fewer than two dash runs (lldpshow's closing line) is not a
// table.
func parseTables(out string) []textTable {
	lines := splitLines(out)
	var tables []textTable
	consumed := -1
	for i := 1; i < len(lines); i++ {
		spans := ruleSpans(lines[i])
		if len(spans) < 2 || i-1 <= consumed || strings.TrimSpace(lines[i-1]) == "" {
			continue
		}
		t := textTable{header: cutCells(lines[i-1], spans)}
		j := i + 1
		for ; j < len(lines); j++ {
			l := lines[j]
			if strings.TrimSpace(l) == "" || len(ruleSpans(l)) > 0 {
				break
			}
			t.rows = append(t.rows, textRow{cells: cutCells(l, spans), line: l})
		}
		tables = append(tables, t)
		consumed = j - 1
		i = j - 1
	}
	return tables
}

// column finds a header cell, or -1.
func (t textTable) column(name string) int {
	for i, h := range t.header {
		if h == name {
			return i
		}
	}
	return -1
}

func splitLines(s string) []string {
	return strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
}

// ruleSpans returns the dash runs of a line made only of dashes and spaces, or nil.
func ruleSpans(line string) []span {
	line = strings.TrimRight(line, " ")
	if !strings.Contains(line, "-") || strings.Trim(line, "- ") != "" {
		return nil
	}
	var spans []span
	start := -1
	for i := 0; i <= len(line); i++ {
		dash := i < len(line) && line[i] == '-'
		switch {
		case dash && start < 0:
			start = i
		case !dash && start >= 0:
			spans = append(spans, span{start, i})
			start = -1
		}
	}
	return spans
}

// cutCells splits a line into tokens separated by two or more spaces and puts each token in
// the column it overlaps most (nearest column when it sits in a gap). Tokens that land in the
// same column are joined, so a misaligned line loses nothing.
func cutCells(line string, spans []span) []string {
	cells := make([]string, len(spans))
	for _, tok := range tokens(line) {
		best, bestScore := 0, -1<<30
		for c, s := range spans {
			score := min(tok.end, s.end) - max(tok.start, s.start)
			if score > bestScore {
				best, bestScore = c, score
			}
		}
		if cells[best] != "" {
			cells[best] += "  "
		}
		cells[best] += line[tok.start:tok.end]
	}
	return cells
}

// tokens are runs of text separated by at least two spaces (a single space belongs to the
// value: "GigabitEthernet 0/2").
func tokens(line string) []span {
	var out []span
	i := 0
	for i < len(line) {
		for i < len(line) && line[i] == ' ' {
			i++
		}
		if i >= len(line) {
			break
		}
		start := i
		for i < len(line) {
			if line[i] == ' ' && (i+1 >= len(line) || line[i+1] == ' ') {
				break
			}
			i++
		}
		out = append(out, span{start, i})
	}
	return out
}
