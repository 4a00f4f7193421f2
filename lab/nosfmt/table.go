package nosfmt

import "strings"

// Table is one table as Python's tabulate prints it in its "simple" layout: a header line, a
// rule of dash runs under it, the rows. A column is as wide as its widest cell or its header
// plus HeaderPad (at least 1); columns are two spaces apart and every line is cut of trailing
// blanks.
type Table struct {
	Header []string
	Rows   [][]string
	// HeaderPad widens every column past its header: 2 for sonic-utilities (tabulate's header
	// padding), 0 for NVUE.
	HeaderPad int
	// Right aligns cells to the right (pfcstat and queuestat pass stralign='right'); otherwise
	// they are left-aligned.
	Right bool
	// Indent starts every line, the rule included (NVUE indents titled sections four spaces).
	Indent string
}

func (t Table) String() string {
	widths := make([]int, len(t.Header))
	for c, h := range t.Header {
		widths[c] = max(len(h)+t.HeaderPad, 1)
	}
	for _, r := range t.Rows {
		for c, cell := range r {
			widths[c] = max(widths[c], len(cell))
		}
	}
	var b strings.Builder
	line := func(cells []string) {
		parts := make([]string, len(cells))
		for c, cell := range cells {
			pad := strings.Repeat(" ", widths[c]-len(cell))
			if t.Right {
				parts[c] = pad + cell
			} else {
				parts[c] = cell + pad
			}
		}
		b.WriteString(strings.TrimRight(t.Indent+strings.Join(parts, "  "), " ") + "\n")
	}
	line(t.Header)
	rule := make([]string, len(widths))
	for c, w := range widths {
		rule[c] = strings.Repeat("-", w)
	}
	b.WriteString(t.Indent + strings.Join(rule, "  ") + "\n")
	for _, r := range t.Rows {
		line(r)
	}
	return b.String()
}
