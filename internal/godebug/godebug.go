// Package godebug reads a runtime setting from GODEBUG the way the Go runtime reads it at
// start-up, so that a tool honouring one of the runtime's switches agrees with the runtime
// on every spelling of it.
package godebug

import (
	"strconv"
	"strings"
)

// Value is the integer the runtime takes for name from godebug (GODEBUG's value): fields
// separated by commas, read left to right, a later one winning; a field's key and value are
// not trimmed, and a value that is not a 32-bit integer is ignored. ok is whether any field
// set it.
func Value(godebug, name string) (v int32, ok bool) {
	for _, field := range strings.Split(godebug, ",") {
		key, value, found := strings.Cut(field, "=")
		if !found || key != name {
			continue
		}
		if n, err := strconv.ParseInt(value, 10, 32); err == nil {
			v, ok = int32(n), true
		}
	}
	return v, ok
}
