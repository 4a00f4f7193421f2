package sonic

import "github.com/roceaudit/roceaudit/lab/nosfmt"

// table is one Python-tabulate "simple" table as sonic-utilities prints it: a column is as
// wide as its widest cell or its header plus two (tabulate's header padding). Cells are
// right-aligned when right is set (pfcstat and queuestat pass stralign='right'), else
// left-aligned with the line's trailing blanks cut.
func table(right bool, header ...string) nosfmt.Table {
	return nosfmt.Table{Header: header, HeaderPad: 2, Right: right}
}
