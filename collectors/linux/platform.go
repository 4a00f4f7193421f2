package linux

import (
	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/perftest"
	"github.com/roceaudit/roceaudit/topology"
)

// descriptor is everything roceaudit knows of Linux RDMA hosts. The command set is the
// collection's plus the test transfer's (perftest, bounded by timeout, and the read-only port
// probe), which only run with --transfer.
var descriptor = collectors.Describe(collectors.Spec{
	Name:        "linux",
	Role:        topology.RoleHost,
	Commands:    append(templates(), perftest.Templates()...),
	Collector:   Platform{},
	Remedy:      Remediation,
	ExamplePort: "ens1f0np0",
	ExampleHost: exampleHost,
	ClabKinds:   map[string]func(string) string{"linux": nil},
})

// Descriptor is the Linux platform for the registry.
func Descriptor() *collectors.Descriptor { return descriptor }

// Platform collects Linux RDMA hosts. The zero value is ready to use.
type Platform struct{}
