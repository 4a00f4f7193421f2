package collectors

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/remedy"
	"github.com/roceaudit/roceaudit/topology"
)

// Collector reads one kind of device.
type Collector interface {
	// Plan lists the commands Collect would send to spec (with placeholders where the
	// interfaces are only known after discovery).
	Plan(spec inventory.DeviceSpec) []string
	// Collect fills dev's facts. A fact that cannot be read is recorded as unknown with its
	// evidence; the error is only for failures that leave nothing to check.
	Collect(ctx context.Context, r Runner, spec inventory.DeviceSpec, dev *topology.Device) error
}

// CLI says how a platform whose CLI wants a prompt is driven through an interactive session.
type CLI struct {
	// Scrapli is the scrapligo v1 platform definition (assets/platforms in its module).
	Scrapli string
	// SetupInput is what the session itself types, outside any allowlist: the driver's on-open
	// sequence (an empty line to read the prompt, paging and width settings that last only for
	// the session) and the "exit" sent on Close.
	SetupInput []string
	// Refusals start a line that is the CLI refusing a command rather than its output.
	Refusals []string
}

// Remediation writes the fix that makes in.Port pass in.CheckID under in.Recipe, in the
// device's own language, naming what the port's facts show it really has; "" when the
// platform has none for that check. It is the one source of a platform's fixes: audits and
// explain both print what it returns.
type Remediation func(in remedy.Input) string

// Spec is everything the program knows of one NOS; a platform package declares one and
// Describe turns it into its Descriptor.
type Spec struct {
	Name string // the inventory's platform name
	Role topology.Role
	// CLI is nil for platforms driven by SSH exec.
	CLI *CLI
	// Commands is the read-only command set: the allowlist is compiled from it.
	Commands  []string
	Collector Collector
	Remedy    Remediation
	// ExamplePort is a port name in the platform's spelling, and ExampleHost or ExampleSwitch
	// that port's facts as a typical failing device reports them: explain prints the fix for
	// them, exactly as an audit of such a port would.
	ExamplePort   string
	ExampleHost   func() *topology.HostPort
	ExampleSwitch func() *topology.SwitchPort
	// ClabKinds are the containerlab node kinds of this platform, each with the device's own
	// name for a port containerlab wires as ethN (nil: containerlab's name is the device's).
	ClabKinds map[string]func(iface string) string
	// AnsibleOS are the ansible_network_os values of this platform; a trailing * makes a
	// collection prefix ("nvidia.nvue.*").
	AnsibleOS []string
}

// Descriptor is one platform as the registry holds it: immutable, its allowlist compiled once
// (it is consulted for every command sent). It is a Platform.
type Descriptor struct {
	spec  Spec
	allow *Allowlist
}

var _ Platform = (*Descriptor)(nil)

// Describe checks and freezes s; a descriptor without a name, role, collector or command set
// is a programming error.
func Describe(s Spec) *Descriptor {
	if s.Name == "" || s.Role == "" || s.Collector == nil || len(s.Commands) == 0 {
		panic(fmt.Sprintf("platform descriptor %q: name, role, collector and commands are required", s.Name))
	}
	s.Commands = slices.Clone(s.Commands)
	s.ClabKinds = maps.Clone(s.ClabKinds)
	s.AnsibleOS = slices.Clone(s.AnsibleOS)
	if s.CLI != nil {
		c := *s.CLI
		c.SetupInput, c.Refusals = slices.Clone(c.SetupInput), slices.Clone(c.Refusals)
		s.CLI = &c
	}
	return &Descriptor{spec: s, allow: NewAllowlist(s.Commands...)}
}

// Name is the inventory platform name.
func (d *Descriptor) Name() string { return d.spec.Name }

// Role is host or switch.
func (d *Descriptor) Role() topology.Role { return d.spec.Role }

// Commands is a copy of the read-only command set.
func (d *Descriptor) Commands() []string { return slices.Clone(d.spec.Commands) }

// Allowlist is the command set, compiled.
func (d *Descriptor) Allowlist() *Allowlist { return d.allow }

// Plan is the collector's plan for spec.
func (d *Descriptor) Plan(spec inventory.DeviceSpec) []string { return d.spec.Collector.Plan(spec) }

// Collect runs the collector.
func (d *Descriptor) Collect(ctx context.Context, r Runner, spec inventory.DeviceSpec, dev *topology.Device) error {
	return d.spec.Collector.Collect(ctx, r, spec, dev)
}

// CLI is how the platform's interactive CLI is driven; ok is false for SSH exec platforms.
func (d *Descriptor) CLI() (CLI, bool) {
	if d.spec.CLI == nil {
		return CLI{}, false
	}
	c := *d.spec.CLI
	c.SetupInput, c.Refusals = slices.Clone(c.SetupInput), slices.Clone(c.Refusals)
	return c, true
}

// Refused returns the CLI's complaint when out is the CLI refusing a command rather than its
// output (a line of the first few starting with one of CLI.Refusals); nil for exec platforms.
func (d *Descriptor) Refused(out string) error {
	if d.spec.CLI == nil {
		return nil
	}
	if line, refused := Refusal(out, d.spec.CLI.Refusals); refused {
		return fmt.Errorf("the switch refused the command: %s", line)
	}
	return nil
}

// Remediation is the platform's fix for in, or "".
func (d *Descriptor) Remediation(in remedy.Input) string {
	if d.spec.Remedy == nil {
		return ""
	}
	return d.spec.Remedy(in)
}

// ExamplePort is a port name as the platform spells it, for remediations shown without a device.
func (d *Descriptor) ExamplePort() string { return d.spec.ExamplePort }

// Example is the remediation request for checkID on the platform's example port and its
// example facts (fresh copies each call) under r.
func (d *Descriptor) Example(checkID string, r recipe.Recipe) remedy.Input {
	in := remedy.Input{CheckID: checkID, Port: d.spec.ExamplePort, Recipe: r}
	if d.spec.ExampleHost != nil {
		in.Host = d.spec.ExampleHost()
	}
	if d.spec.ExampleSwitch != nil {
		in.Switch = d.spec.ExampleSwitch()
	}
	return in
}

// ClabKinds are the containerlab kinds of the platform, sorted.
func (d *Descriptor) ClabKinds() []string { return slices.Sorted(maps.Keys(d.spec.ClabKinds)) }

// AnsibleOS are the ansible_network_os values (or collection prefixes ending in *) of the platform.
func (d *Descriptor) AnsibleOS() []string { return slices.Clone(d.spec.AnsibleOS) }
