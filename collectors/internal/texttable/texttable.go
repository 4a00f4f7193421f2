// Package texttable splits the column-aligned text tables that switch CLIs print under a rule
// of dashes (sonic-utilities' tabulate tables, NVIDIA NVUE's `nv show` output) into cells.
//
// Columns are cut at the rule's dash runs, not at whitespace, so empty cells, values with single
// spaces and right-aligned numbers all land in the right column.
package texttable

import "strings"

// Span is the character range [Start, End) of a line: a column's dash run in the rule line,
// or a token of a row.
type Span struct{ Start, End int }

// SplitLines splits output into lines, CRLF or LF.
func SplitLines(s string) []string {
	return strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
}

// RuleSpans returns the dash runs of a line made only of dashes and spaces, or nil.
func RuleSpans(line string) []Span {
	line = strings.TrimRight(line, " ")
	if !strings.Contains(line, "-") || strings.Trim(line, "- ") != "" {
		return nil
	}
	var spans []Span
	start := -1
	for i := 0; i <= len(line); i++ {
		dash := i < len(line) && line[i] == '-'
		switch {
		case dash && start < 0:
			start = i
		case !dash && start >= 0:
			spans = append(spans, Span{start, i})
			start = -1
		}
	}
	return spans
}

// CutCells splits a line into tokens separated by two or more spaces and puts each token in
// the column it overlaps most, or the nearest column when it sits in a gap (NVUE's documented
// headers are sometimes one character off their rule). Tokens that land in the same column
// are joined with two spaces, so a misaligned line loses nothing.
func CutCells(line string, spans []Span) []string {
	cells := make([]string, len(spans))
	for _, tok := range Tokens(line) {
		best, bestScore := 0, -1<<30
		for c, s := range spans {
			score := min(tok.End, s.End) - max(tok.Start, s.Start)
			if score > bestScore {
				best, bestScore = c, score
			}
		}
		if cells[best] != "" {
			cells[best] += "  "
		}
		cells[best] += line[tok.Start:tok.End]
	}
	return cells
}

// Tokens are the runs of text separated by at least two spaces: a single space belongs to the
// value ("strict priority", "1.43 MB", "GigabitEthernet 0/2").
func Tokens(line string) []Span {
	var out []Span
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
		out = append(out, Span{start, i})
	}
	return out
}
