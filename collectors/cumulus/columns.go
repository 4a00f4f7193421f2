package cumulus

import "strings"

// span is one column: the character range of its dash run in the rule line.
type span struct{ start, end int }

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
// the column it overlaps most (the nearest column when it sits in a gap: NVUE's documented
// headers are sometimes one character off their rule). Tokens in the same column are joined.
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
// value: "strict priority", "1.43 MB").
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
