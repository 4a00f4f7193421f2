// Package texttable splits the column-aligned text tables that switch CLIs print under a rule
// of dashes (sonic-utilities' tabulate tables, NVIDIA NVUE's `nv show` output) into cells.
//
// Columns are cut at the rule's dash runs, not at whitespace, so empty cells, values with single
// spaces and right-aligned numbers all land in the right column.
//
// Positions are display columns (runes), not bytes: NVUE marks a truncated column with "…"
// (U+2026, three bytes, one column) at the end of its dash run and a truncated cell with "…"
// at its end, so byte offsets would shift every column to the right of one.
package texttable

import (
	"iter"
	"strings"
	"unicode/utf8"
)

// Ellipsis is the mark NVUE puts at the end of a truncated cell and of the dash run of a
// column whose cells it truncates.
const Ellipsis = "…"

const ellipsis = '…'

// Span is the rune range [Start, End) of a line: a column's dash run in the rule line, or a
// token of a row.
type Span struct{ Start, End int }

// Text is the part of line the span covers, the span being in runes.
func (s Span) Text(line string) string {
	if isASCII(line) {
		return line[min(s.Start, len(line)):min(s.End, len(line))]
	}
	r := []rune(line)
	return string(r[min(s.Start, len(r)):min(s.End, len(r))])
}

// SplitLines splits output into lines, CRLF or LF.
func SplitLines(s string) []string {
	return strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
}

// RuleSpans returns the dash runs of a rule line, or nil. A rule line is made of runs of
// dashes separated by spaces; a run may carry NVUE's "…" after a dash (the column is
// truncated), but a "…" alone is not a run.
func RuleSpans(line string) []Span {
	line = strings.TrimRight(line, " ")
	if isASCII(line) {
		return ruleSpansASCII(line)
	}
	return ruleSpansRunes(line)
}

func ruleSpansRunes(line string) []Span {
	r := []rune(line)
	var spans []Span
	start := -1
	for i := 0; i <= len(r); i++ {
		switch {
		case i < len(r) && r[i] == '-':
			if start < 0 {
				start = i
			}
		case i < len(r) && r[i] == ellipsis && start >= 0:
			// part of the run started by a dash
		case i == len(r) || r[i] == ' ':
			if start >= 0 {
				spans = append(spans, Span{start, i})
				start = -1
			}
		default:
			return nil
		}
	}
	return spans
}

// CutCells splits a line into tokens separated by two or more spaces and puts each token in
// the column it overlaps most, or the nearest column when it sits in a gap (NVUE's documented
// headers are sometimes one character off their rule). Tokens that land in the same column
// are joined with two spaces, so a misaligned line loses nothing. A truncated cell keeps its
// "…".
func CutCells(line string, spans []Span) []string {
	return CutCellsInto(make([]string, len(spans)), line, spans)
}

// CutCellsInto is CutCells into cells (len(spans) long), which it clears first: a parser
// cutting every line of a table reuses one slice rather than allocating one a line.
func CutCellsInto(cells []string, line string, spans []Span) []string {
	clear(cells)
	if isASCII(line) {
		for tok := range asciiTokens(line) {
			put(cells, spans, tok, line[tok.Start:tok.End])
		}
		return cells
	}
	return cutCellsRunes(line, spans, cells)
}

func cutCellsRunes(line string, spans []Span, cells []string) []string {
	r := []rune(line)
	for _, tok := range tokens(r) {
		put(cells, spans, tok, string(r[tok.Start:tok.End]))
	}
	return cells
}

// put adds token text, at tok, to the cell of the column it overlaps most.
func put(cells []string, spans []Span, tok Span, text string) {
	best, bestScore := 0, -1<<30
	for c, s := range spans {
		score := min(tok.End, s.End) - max(tok.Start, s.Start)
		if score > bestScore {
			best, bestScore = c, score
		}
	}
	if cells[best] != "" {
		cells[best] += "  " + text
	} else {
		cells[best] = text
	}
}

// isASCII says whether s is all ASCII: then byte offsets are rune offsets, and the table's
// cells are pieces of the line rather than copies through a []rune (a switch's tables are
// ASCII but for NVUE's "…", and were most of their parsing's allocations).
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// ruleSpansASCII is RuleSpans of an ASCII line without trailing spaces (no "…" to allow).
func ruleSpansASCII(l string) []Span {
	var spans []Span
	start := -1
	for i := 0; i <= len(l); i++ {
		switch {
		case i < len(l) && l[i] == '-':
			if start < 0 {
				start = i
			}
		case i == len(l) || l[i] == ' ':
			if start >= 0 {
				spans = append(spans, Span{start, i})
				start = -1
			}
		default:
			return nil
		}
	}
	return spans
}

// asciiTokens are tokens' tokens of an ASCII line, where byte offsets are rune offsets,
// without a []rune of it.
func asciiTokens(l string) iter.Seq[Span] {
	return func(yield func(Span) bool) {
		for j := 0; j < len(l); {
			for j < len(l) && l[j] == ' ' {
				j++
			}
			start := j
			for j < len(l) && (l[j] != ' ' || j+1 < len(l) && l[j+1] != ' ') {
				j++
			}
			if start == j || !yield(Span{start, j}) {
				return
			}
		}
	}
}

// Tokens are the runs of text separated by at least two spaces: a single space belongs to the
// value ("strict priority", "1.43 MB", "GigabitEthernet 0/2"). Their spans are in runes; read
// them with Span.Text.
func Tokens(line string) []Span {
	if isASCII(line) {
		var out []Span
		for tok := range asciiTokens(line) {
			out = append(out, tok)
		}
		return out
	}
	return tokens([]rune(line))
}

func tokens(r []rune) []Span {
	var out []Span
	i := 0
	for i < len(r) {
		for i < len(r) && r[i] == ' ' {
			i++
		}
		if i >= len(r) {
			break
		}
		start := i
		for i < len(r) {
			if r[i] == ' ' && (i+1 >= len(r) || r[i+1] == ' ') {
				break
			}
			i++
		}
		out = append(out, Span{start, i})
	}
	return out
}

// Truncated reports whether NVUE cut a cell short: its text ends with "…". Such a cell is a
// prefix of the value, not the value.
func Truncated(cell string) bool {
	return strings.HasSuffix(cell, Ellipsis)
}
