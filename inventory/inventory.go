// Package inventory reads what to audit: a roceaudit inventory file (devices, connection
// settings, recipe overrides, links, paths) or a containerlab topology, an Ansible inventory
// or a NetBox instance standing in for one, validated strictly with file and line in every
// error.
package inventory

import (
	"time"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// Inventory is a loaded, validated inventory with defaults applied to every device.
type Inventory struct {
	File      string
	Recipe    recipe.Recipe
	Devices   []DeviceSpec // hosts first, then switches, in file order
	Links     []topology.Link
	Paths     [][2]string
	Simulated bool // written by the built-in lab
	// Warnings are what an import read but did not use (FILE:LINE: message): an unknown
	// Ansible variable, a node left out. The inventory is usable; show them to the user.
	Warnings []string
	// Read are the local files Open read it from, for a caller that must not overwrite them.
	Read ReadFiles
}

// ReadFiles are the local files an inventory was read from, each "" when there is none.
type ReadFiles struct {
	Source   string // the inventory file, containerlab topology or Ansible inventory (none for NetBox)
	Defaults string // the --defaults overlay
	CA       string // the NetBox CA bundle
}

// DeviceSpec is one device of the inventory with its connection settings resolved.
type DeviceSpec struct {
	Name       string
	Role       topology.Role
	Platform   string
	Address    string
	Interfaces []string // hosts: RDMA netdevs to audit; empty means every RDMA netdev
	GIDIndex   *int     // hosts: the GID index applications are configured with, if any
	Conn       Connection
	Line       int // where it is defined, for messages
}

// Connection is how to reach a device over SSH. Secrets are never stored here: a password
// is only ever named by the environment variable that holds it.
type Connection struct {
	User         string
	Port         int
	IdentityFile string
	KnownHosts   string
	Timeout      time.Duration
	Sudo         bool
	Jump         string
	PasswordEnv  string
	// UserDefault and PortDefault say User ($USER) and Port (22) are built-in defaults, not
	// written in the inventory: ~/.ssh/config's User and Port for the host come first.
	UserDefault bool
	PortDefault bool
}

// Device finds a device spec by name.
func (inv *Inventory) Device(name string) (DeviceSpec, bool) {
	for _, d := range inv.Devices {
		if d.Name == name {
			return d, true
		}
	}
	return DeviceSpec{}, false
}
