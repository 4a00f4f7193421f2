package sonic

import (
	"strings"

	"github.com/roceaudit/roceaudit/collectors/internal/texttable"
)

// The whole-table reader the collector used before scanTables: the oracle of the tests that
// compare the streaming counter and LLDP parsers with the old ones.

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

// parseTables finds every table in out. Columns are cut at the rule's dash runs, not at
// whitespace, so empty cells, values with single spaces and right-aligned numbers all land in
// the right column. A rule with fewer than two dash runs (lldpshow's closing line) is not a
// table.
func parseTables(out string) []textTable {
	lines := texttable.SplitLines(out)
	var tables []textTable
	consumed := -1
	for i := 1; i < len(lines); i++ {
		if !mayBeRule(lines[i]) {
			continue
		}
		spans := texttable.RuleSpans(lines[i])
		if len(spans) < 2 || i-1 <= consumed || strings.TrimSpace(lines[i-1]) == "" {
			continue
		}
		t := textTable{header: texttable.CutCells(lines[i-1], spans)}
		j := i + 1
		for ; j < len(lines); j++ {
			l := lines[j]
			if strings.TrimSpace(l) == "" || len(texttable.RuleSpans(l)) > 0 {
				break
			}
			t.rows = append(t.rows, textRow{cells: texttable.CutCells(l, spans), line: l})
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
