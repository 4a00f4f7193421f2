package cumulus

import (
	"fmt"
	"math"
	"strings"

	"github.com/roceaudit/roceaudit/lab/nosfmt"
)

// NVUE prints its text output with Python's tabulate: columns as wide as their widest cell or
// header, two spaces apart, left-aligned. A leading key tree has a blank first header and the
// keys indented two spaces a level; titled sections follow, each a title underlined with "="
// (three longer than the title) over a table indented four spaces. Trailing blanks are cut.

// kv is one row of a key tree: a key at a depth, and its cells under the value columns.
type kv struct {
	key   string
	depth int
	cells []string
}

// keyTree renders a key tree under the given value columns ("operational", "applied", ...).
func keyTree(cols []string, rows []kv) string {
	header := append([]string{""}, cols...)
	var cells [][]string
	for _, r := range rows {
		line := append([]string{strings.Repeat("  ", r.depth) + r.key}, r.cells...)
		for len(line) < len(header) {
			line = append(line, "")
		}
		cells = append(cells, line)
	}
	return grid(header, cells, "")
}

// section renders a titled table, indented four spaces.
func section(title string, header []string, rows [][]string) string {
	return title + "\n" + strings.Repeat("=", len(title)+3) + "\n" + grid(header, rows, "    ")
}

// plainTable renders a table without a title or indentation (`nv show interface lldp`).
func plainTable(header []string, rows [][]string) string {
	return grid(header, rows, "")
}

// grid lays out a header, its dash rule and the rows: columns as wide as their widest cell or
// header, two spaces apart, left-aligned.
func grid(header []string, rows [][]string, indent string) string {
	return nosfmt.Table{Header: header, Rows: rows, Indent: indent}.String()
}

// joinBlocks separates the parts of one output by a blank line.
func joinBlocks(blocks ...string) string {
	return strings.Join(blocks, "\n")
}

// humanBytes is how NVUE's text output shows a byte count: "0 Bytes" below a kilobyte, else
// two decimals of the largest unit that keeps the number at least 1 (KB = 1024 B, as the
// reference's own numbers show: 150000 B is "146.48 KB").
func humanBytes(n int64) string {
	if n < 1024 {
		return fmt.Sprintf("%d Bytes", n)
	}
	v := float64(n)
	for _, u := range []string{"KB", "MB", "GB", "TB"} {
		v /= 1024
		if v < 1024 || u == "TB" {
			return fmt.Sprintf("%.2f %s", math.Floor(v*100+0.5)/100, u)
		}
	}
	return "" // unreachable: the loop returns at TB
}
