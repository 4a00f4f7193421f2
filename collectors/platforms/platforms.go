// Package platforms is the one explicit registry of every platform roceaudit can collect.
// Adding a NOS means one new package declaring its collectors.Descriptor and one line here.
package platforms

import (
	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/cumulus"
	"github.com/roceaudit/roceaudit/collectors/eos"
	"github.com/roceaudit/roceaudit/collectors/linux"
	"github.com/roceaudit/roceaudit/collectors/nxos"
	"github.com/roceaudit/roceaudit/collectors/sonic"
)

// Descriptors lists every supported platform, one line each.
func Descriptors() []*collectors.Descriptor {
	return []*collectors.Descriptor{
		linux.Descriptor(),
		sonic.Descriptor(),
		cumulus.Descriptor(),
		eos.Descriptor(),
		nxos.Descriptor(),
	}
}

// Registry returns every supported platform.
func Registry() *collectors.Registry { return collectors.NewRegistry(Descriptors()...) }
