package sonic

import (
	"errors"
	"strings"

	"github.com/roceaudit/roceaudit/collectors/internal/texttable"
)

// errStopTables ends scanTables early without an error.
var errStopTables = errors.New("stop")

// scanTables reads every Python-tabulate "simple" table in out (a header line, a rule of dash
// runs, then rows until a blank line, a rule, or the end). Columns are cut at the rule's dash
// runs, not at whitespace, so empty cells, values with single spaces and right-aligned numbers
// all land in the right column; a rule with fewer than two dash runs (lldpshow's closing line)
// is not a table. table is called with each table's header (shared with the next table of
// the same header: read only) and returns what reads its rows (nil skips the table) or an
// error (errStopTables ends the scan, with no error). A row's cells are a buffer reused for
// the next row: keep the strings, not the slice. Streaming, without the rows and cells of
// every table kept at once, the counter parsers allocate a tenth of what they did
// (parseTables, that whole-table reader, is now the tests' oracle).
func scanTables(out string, table func(header []string) (func(cells []string, line string) error, error)) error {
	lines := texttable.SplitLines(out)
	consumed := -1
	var cells []string
	// `show queue counters` prints a table per port, each with the same header and rule:
	// cut once
	var lastRule, lastHeaderLine string
	var lastSpans []texttable.Span
	var lastHeader []string
	for i := 1; i < len(lines); i++ {
		if !mayBeRule(lines[i]) {
			continue
		}
		spans := lastSpans
		if lines[i] != lastRule || lastSpans == nil {
			spans = texttable.RuleSpans(lines[i])
			lastRule, lastSpans, lastHeader = lines[i], spans, nil
		}
		if len(spans) < 2 || i-1 <= consumed || strings.TrimSpace(lines[i-1]) == "" {
			continue
		}
		if lines[i-1] != lastHeaderLine || lastHeader == nil {
			lastHeaderLine, lastHeader = lines[i-1], texttable.CutCells(lines[i-1], spans)
		}
		row, err := table(lastHeader)
		if err != nil {
			if err == errStopTables {
				return nil
			}
			return err
		}
		if cap(cells) < len(spans) {
			cells = make([]string, len(spans))
		}
		cells = cells[:len(spans)]
		j := i + 1
		for ; j < len(lines); j++ {
			l := lines[j]
			if strings.TrimSpace(l) == "" || mayBeRule(l) && len(texttable.RuleSpans(l)) > 0 {
				break
			}
			if row != nil {
				if err := row(texttable.CutCellsInto(cells, l, spans), l); err != nil {
					return err
				}
			}
		}
		consumed = j - 1
		i = j - 1
	}
	return nil
}

// mayBeRule is false for a line texttable.RuleSpans finds no dash run in: its first
// character other than a space is not a dash. Most lines are rows, rejected here without
// RuleSpans' scans of the whole line.
func mayBeRule(line string) bool {
	for i := 0; i < len(line); i++ {
		if line[i] != ' ' {
			return line[i] == '-'
		}
	}
	return false
}

// columnOf finds a header cell, or -1.
func columnOf(header []string, name string) int {
	for i, h := range header {
		if h == name {
			return i
		}
	}
	return -1
}
