package inventory

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
)

// Error is one problem in an inventory file, at the place it was found. The CLI maps
// it (alone or joined with others) to exit code 2.
type Error struct {
	File   string
	Line   int // 0 when the problem has no place (e.g. an empty file name)
	Column int // 0 when the YAML parser did not say
	Err    error
}

func (e *Error) Error() string {
	switch {
	case e.Line > 0 && e.Column > 0:
		return fmt.Sprintf("%s:%d:%d: %v", e.File, e.Line, e.Column, e.Err)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
	default:
		return fmt.Sprintf("%s: %v", e.File, e.Err)
	}
}

func (e *Error) Unwrap() error { return e.Err }

// maxInventoryErrors keeps one systematic mistake (say, a typo in every device) from
// burying the rest of the output.
const maxInventoryErrors = 20

// inventoryErrors is every problem found in one file; the parser keeps going after the
// first so that `roceaudit validate` shows them all at once.
type inventoryErrors struct {
	file string
	list []*Error
}

func (l *inventoryErrors) add(line, col int, err error) {
	l.addIn(l.file, line, col, err)
}

// addIn records a problem in another file the inventory reads (an Ansible group_vars file).
func (l *inventoryErrors) addIn(file string, line, col int, err error) {
	// One value inherited by many devices (an Ansible group variable) is reported once.
	for _, e := range l.list {
		if e.File == file && e.Line == line && e.Column == col && e.Err.Error() == err.Error() {
			return
		}
	}
	l.list = append(l.list, &Error{File: file, Line: line, Column: col, Err: err})
}

// byPlace orders problems as a reader meets them: the inventory file first, then the
// files it pulls in by name, each by line and column.
func byPlace(main, fileA string, lineA, colA int, fileB string, lineB, colB int) int {
	return cmp.Or(cmp.Compare(otherFile(main, fileA), otherFile(main, fileB)), cmp.Compare(fileA, fileB),
		cmp.Compare(lineA, lineB), cmp.Compare(colA, colB))
}

func otherFile(main, file string) int {
	if file == main {
		return 0
	}
	return 1
}

// err returns nil, the single error, or all of them joined in file order.
func (l *inventoryErrors) err() error {
	if len(l.list) == 0 {
		return nil
	}
	slices.SortStableFunc(l.list, func(a, b *Error) int {
		return byPlace(l.file, a.File, a.Line, a.Column, b.File, b.Line, b.Column)
	})
	if len(l.list) == 1 {
		return l.list[0]
	}
	errs := make([]error, 0, maxInventoryErrors+1)
	for i, e := range l.list {
		if i == maxInventoryErrors {
			errs = append(errs, fmt.Errorf("%s: %d more errors not shown", l.file, len(l.list)-i))
			break
		}
		errs = append(errs, e)
	}
	return errors.Join(errs...)
}
