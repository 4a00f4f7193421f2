package collectors

import (
	"context"
	"fmt"
	"sort"

	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

// Platform collects one kind of device. Adding a NOS means one package implementing this and
// one line in the registry.
type Platform interface {
	Name() string
	Role() topology.Role
	// Allowlist is every command the platform may send.
	Allowlist() *Allowlist
	// Plan lists the commands Collect would send to spec (with placeholders where the
	// interfaces are only known after discovery).
	Plan(spec inventory.DeviceSpec) []string
	// Collect fills dev's facts. A fact that cannot be read is recorded as unknown with its
	// evidence; the error is only for failures that leave nothing to check.
	Collect(ctx context.Context, r Runner, spec inventory.DeviceSpec, dev *topology.Device) error
}

// Registry is the explicit list of platforms.
type Registry struct {
	platforms map[string]Platform
}

// NewRegistry registers platforms; a duplicate name is a programming error.
func NewRegistry(ps ...Platform) *Registry {
	r := &Registry{platforms: map[string]Platform{}}
	for _, p := range ps {
		if _, dup := r.platforms[p.Name()]; dup {
			panic(fmt.Sprintf("platform %q registered twice", p.Name()))
		}
		r.platforms[p.Name()] = p
	}
	return r
}

// Get finds a platform by name.
func (r *Registry) Get(name string) (Platform, bool) {
	p, ok := r.platforms[name]
	return p, ok
}

// Names lists the registered platforms, sorted.
func (r *Registry) Names() []string {
	var out []string
	for n := range r.platforms {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
