package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/collectors/platforms"
	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// exampleFabric is each platform's example port with its example facts, audited: every
// switch platform's port linked to a host of its own whose port is the Linux example.
func exampleFabric(t *testing.T) *topology.Snapshot {
	t.Helper()
	reg := platforms.Registry()
	snap := &topology.Snapshot{Recipe: recipe.Default()}
	linux, _ := reg.Get("linux")
	for i, name := range reg.Names() {
		d, _ := reg.Get(name)
		if d.Role() != topology.RoleSwitch {
			continue
		}
		host := fmt.Sprintf("gpu%02d", i)
		snap.Devices = append(snap.Devices,
			&topology.Device{Name: host, Platform: "linux", Role: topology.RoleHost, Reachable: true,
				Host: &topology.HostFacts{Ports: []*topology.HostPort{linux.Example("", snap.Recipe).Host}}},
			&topology.Device{Name: "sw-" + name, Platform: name, Role: topology.RoleSwitch, Reachable: true,
				Switch: &topology.SwitchFacts{Ports: []*topology.SwitchPort{d.Example("", snap.Recipe).Switch}}})
		snap.Links = append(snap.Links, topology.Link{Source: "inventory",
			A: topology.PortRef{Device: "sw-" + name, Interface: d.ExamplePort()},
			B: topology.PortRef{Device: host, Interface: linux.ExamplePort()}})
	}
	return snap
}

// explain prints, for every check and platform, exactly the fix an audit of the platform's
// example port prints: both come from the platform's one remedy.
func TestExplainShowsWhatAnAuditPrints(t *testing.T) {
	reg := platforms.Registry()
	r := recipe.Default()
	audited := map[string]string{} // check + platform -> remediation of a failing port result
	snap := exampleFabric(t)
	platformOf := map[string]string{}
	for _, d := range snap.Devices {
		platformOf[d.Name] = d.Platform
	}
	for _, res := range checks.Run(snap, checks.Options{Remedy: reg.Remedy}) {
		c, _ := checks.Lookup(res.Check)
		if res.Status == checks.Fail && (c.Scope == checks.ScopeHostPort || c.Scope == checks.ScopeSwitchPort) {
			audited[res.Check+" "+platformOf[res.Device]] = res.Remediation
		}
	}
	if len(audited) < 15 {
		t.Fatalf("the example ports fail only %d checks: %v", len(audited), audited)
	}
	for _, c := range checks.Catalog() {
		code, out, errs := run(t, "explain", c.ID)
		if code != exitOK {
			t.Fatalf("explain %s: exit %d: %s", c.ID, code, errs)
		}
		for _, name := range reg.Names() {
			d, _ := reg.Get(name)
			fix := d.Remediation(d.Example(c.ID, r))
			if fix == "" {
				continue
			}
			block := fmt.Sprintf("  %s, on example port %s:\n    %s\n", name, d.ExamplePort(), strings.ReplaceAll(fix, "\n", "\n    "))
			if !strings.Contains(out, block) {
				t.Errorf("explain %s lacks %s's fix:\n%s\nin:\n%s", c.ID, name, block, out)
			}
			if got, ok := audited[c.ID+" "+name]; ok && got != fix {
				t.Errorf("%s on %s: the audit prints\n%s\nbut explain\n%s", c.ID, name, got, fix)
			}
		}
	}
}
