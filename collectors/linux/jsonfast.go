package linux

import (
	"github.com/roceaudit/roceaudit/collectors/internal/jsonscan"
)

// The host's JSON outputs (ip -j, lldpcli json0) are read by a scan in place where they look
// as their tools print them, and by encoding/json otherwise: a scan reads a struct as
// encoding/json would (jsonscan's Struct), or declines, and encoding/json decides, errors
// included. These helpers read its lists and values.

// scanList reads the array at sc, each element by elem, as encoding/json fills a slice (an
// empty array is an empty slice, not nil).
func scanList[T any](sc *jsonscan.Scanner, elem func(*T) bool) ([]T, bool) {
	out := []T{}
	ok := sc.Array(func() bool {
		var v T
		if !elem(&v) {
			return false
		}
		out = append(out, v)
		return true
	})
	return out, ok
}

// scanInt is jsonscan's Int64 for an int field: declined out of int's range too.
func scanInt(sc *jsonscan.Scanner) (int, bool) {
	n, ok := sc.Int64()
	return int(n), ok && int64(int(n)) == n
}

// scanStr reads a string into *s.
func scanStr(sc *jsonscan.Scanner, s *string) bool {
	v, ok := sc.Str()
	*s = v
	return ok
}
