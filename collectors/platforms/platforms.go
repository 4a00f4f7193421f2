// Package platforms is the one explicit registry of every platform roceaudit can collect.
// Adding a NOS means one new collector package and one line here.
package platforms

import (
	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/linux"
)

// Registry returns every supported platform.
func Registry() *collectors.Registry {
	return collectors.NewRegistry(
		linux.Platform{},
	)
}
