package linux

import (
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/collectors/internal/jsonscan"
)

// The host's JSON outputs (ip -j, lldpcli json0) are read by a scan in place where they look
// as their tools print them, and by encoding/json otherwise. These helpers make a scan read a
// struct as encoding/json would, or decline (then encoding/json decides, errors included).

// scanStruct walks the object at sc as encoding/json fills a struct whose JSON keys are keys:
// field(i) reads keys[i]'s value, other members are skipped. It declines a key that names a
// field only when case is ignored (encoding/json would fill the field) and a field given twice
// (encoding/json keeps the last, merging objects).
func scanStruct(sc *jsonscan.Scanner, keys []string, field func(i int) bool) bool {
	var seen uint64
	return sc.Object(func(key string) bool {
		switch i := fieldIndex(keys, key); {
		case i == -2:
			return false
		case i == -1:
			return sc.Skip()
		case seen&(1<<i) != 0:
			return false
		default:
			seen |= 1 << i
			return field(i)
		}
	})
}

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

// fieldIndex is key's index in keys, -1 for none, -2 for a key equal to one of them only
// when case is ignored.
func fieldIndex(keys []string, key string) int {
	for i, k := range keys {
		if k == key {
			return i
		}
	}
	ascii := true
	for i := range len(key) {
		if key[i] >= 0x80 {
			ascii = false
			break
		}
	}
	for _, k := range keys {
		// An ASCII key folds only to one of its own length (the tools' keys all are);
		// others, such as the Kelvin sign, may fold to a shorter one.
		if (!ascii || len(k) == len(key)) && strings.EqualFold(k, key) {
			return -2
		}
	}
	return -1
}

// scanInt reads a number token encoding/json stores in an int unchanged: digits with an
// optional minus, in range.
func scanInt(sc *jsonscan.Scanner) (int, bool) {
	tok, ok := sc.Number()
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(tok)
	return n, err == nil && !strings.HasPrefix(tok, "+")
}

// scanStr reads a string into *s.
func scanStr(sc *jsonscan.Scanner, s *string) bool {
	v, ok := sc.Str()
	*s = v
	return ok
}
