package linux

import (
	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/topology"
)

// Platform collects Linux RDMA hosts. The zero value is ready to use.
type Platform struct{}

var _ collectors.Platform = Platform{}

// Name is the inventory platform name.
func (Platform) Name() string { return "linux" }

// Role is host.
func (Platform) Role() topology.Role { return topology.RoleHost }

// Allowlist is exactly the command set of notes/linux-commands.md.
func (Platform) Allowlist() *collectors.Allowlist { return newAllowlist() }
