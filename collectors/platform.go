package collectors

import (
	"fmt"
	"maps"
	"slices"

	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/remedy"
	"github.com/roceaudit/roceaudit/topology"
)

// Platform is what a collection run needs of a platform; a *Descriptor is one.
type Platform interface {
	Collector
	Name() string
	Role() topology.Role
	// Allowlist is every command the platform may send.
	Allowlist() *Allowlist
}

// Registry is the explicit list of platforms. Adding a NOS means one package declaring its
// Descriptor and one line in the registry that lists it: everything else (dialling, the
// inventory importers, plan, explain, remediation, the allowlist) reads it from here.
type Registry struct {
	platforms map[string]*Descriptor
	clab      map[string]inventory.ClabKind
	ansible   map[string]string // ansible_network_os (or collection prefix + "*") -> platform
}

// NewRegistry registers platforms; a name, containerlab kind or Ansible network OS claimed
// twice is a programming error.
func NewRegistry(ds ...*Descriptor) *Registry {
	r := &Registry{platforms: map[string]*Descriptor{}, clab: map[string]inventory.ClabKind{}, ansible: map[string]string{}}
	claimed := map[string]string{}
	claim := func(what, key, name string) {
		if other, dup := claimed[what+" "+key]; dup {
			panic(fmt.Sprintf("%s %q claimed by platforms %q and %q", what, key, other, name))
		}
		claimed[what+" "+key] = name
	}
	for _, d := range ds {
		if _, dup := r.platforms[d.Name()]; dup {
			panic(fmt.Sprintf("platform %q registered twice", d.Name()))
		}
		r.platforms[d.Name()] = d
		for k, port := range d.spec.ClabKinds {
			claim("containerlab kind", k, d.Name())
			r.clab[k] = inventory.ClabKind{Platform: d.Name(), Port: port}
		}
		for _, os := range d.spec.AnsibleOS {
			claim("ansible_network_os", os, d.Name())
			r.ansible[os] = d.Name()
		}
	}
	return r
}

// Get finds a platform by name.
func (r *Registry) Get(name string) (*Descriptor, bool) {
	d, ok := r.platforms[name]
	return d, ok
}

// Names lists the registered platforms, sorted.
func (r *Registry) Names() []string { return slices.Sorted(maps.Keys(r.platforms)) }

// Role is the role of a registered platform (the inventory's platform lookup).
func (r *Registry) Role(name string) (topology.Role, bool) {
	d, ok := r.platforms[name]
	if !ok {
		return "", false
	}
	return d.Role(), true
}

// ClabKinds maps every containerlab kind a platform claims to that platform and its port names.
func (r *Registry) ClabKinds() map[string]inventory.ClabKind { return maps.Clone(r.clab) }

// AnsibleNetworkOS maps every ansible_network_os value (a trailing * is a collection prefix)
// a platform claims to that platform.
func (r *Registry) AnsibleNetworkOS() map[string]string { return maps.Clone(r.ansible) }

// Interactive says whether platform is driven through an interactive CLI session.
func (r *Registry) Interactive(platform string) bool {
	d, ok := r.platforms[platform]
	if !ok {
		return false
	}
	_, cli := d.CLI()
	return cli
}

// Remedy is platform's remediation for in, or "" (the check engine's hook).
func (r *Registry) Remedy(platform string, in remedy.Input) string {
	d, ok := r.platforms[platform]
	if !ok {
		return ""
	}
	return d.Remediation(in)
}
