package sonic

import "strings"

// table is one Python-tabulate "simple" table as sonic-utilities prints it: a header line, a
// rule of dash runs, the rows. A column is as wide as its widest cell or its header plus two
// (tabulate's header padding); columns are two spaces apart. Cells are right-aligned when
// right is set (pfcstat and queuestat pass stralign='right'), else left-aligned with the line's
// trailing blanks cut.
type table struct {
	header []string
	rows   [][]string
	right  bool
}

func (t table) String() string {
	widths := make([]int, len(t.header))
	for c, h := range t.header {
		widths[c] = len(h) + 2
	}
	for _, r := range t.rows {
		for c, cell := range r {
			widths[c] = max(widths[c], len(cell))
		}
	}
	var b strings.Builder
	line := func(cells []string) {
		parts := make([]string, len(cells))
		for c, cell := range cells {
			pad := strings.Repeat(" ", widths[c]-len(cell))
			if t.right {
				parts[c] = pad + cell
			} else {
				parts[c] = cell + pad
			}
		}
		b.WriteString(strings.TrimRight(strings.Join(parts, "  "), " "))
		b.WriteString("\n")
	}
	line(t.header)
	rule := make([]string, len(widths))
	for c, w := range widths {
		rule[c] = strings.Repeat("-", w)
	}
	b.WriteString(strings.Join(rule, "  ") + "\n")
	for _, r := range t.rows {
		line(r)
	}
	return b.String()
}
