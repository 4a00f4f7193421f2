package platforms

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/eos"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/labcheck"
	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// The registry maps the containerlab kinds and Ansible network OS values the product supports
// to registered platforms of the right role.
func TestImportTablesLandOnPlatforms(t *testing.T) {
	reg := Registry()
	for kind, k := range reg.ClabKinds() {
		role, ok := reg.Role(k.Platform)
		if !ok || (kind == "linux") != (role == topology.RoleHost) {
			t.Errorf("containerlab kind %s -> %s (role %q, registered %v)", kind, k.Platform, role, ok)
		}
	}
	for os, p := range reg.AnsibleNetworkOS() {
		if role, ok := reg.Role(p); !ok || role != topology.RoleSwitch {
			t.Errorf("ansible_network_os %s -> %s (role %q, registered %v)", os, p, role, ok)
		}
	}
	for kind, want := range map[string]string{"ceos": "eos", "cisco_n9kv": "nxos", "sonic-vs": "sonic", "cvx": "cumulus", "linux": "linux"} {
		if got := reg.ClabKinds()[kind].Platform; got != want {
			t.Errorf("kind %s -> %q, want %s", kind, got, want)
		}
	}
	for os, want := range map[string]string{"cisco.nxos.nxos": "nxos", "arista.eos.eos": "eos", "nvidia.nvue.*": "cumulus", "dellemc.enterprise_sonic.sonic": "sonic"} {
		if got := reg.AnsibleNetworkOS()[os]; got != want {
			t.Errorf("network_os %s -> %q, want %s", os, got, want)
		}
	}
}

// Exactly the prompt-driven NOSes are interactive, each with its scrapligo platform, setup
// input and refusal markers.
func TestInteractivePlatforms(t *testing.T) {
	reg := Registry()
	var got []string
	for _, n := range reg.Names() {
		d, _ := reg.Get(n)
		c, ok := d.CLI()
		if ok != reg.Interactive(n) {
			t.Errorf("%s: CLI %v, Interactive %v", n, ok, reg.Interactive(n))
		}
		if !ok {
			continue
		}
		got = append(got, n)
		if c.Scrapli == "" || len(c.SetupInput) == 0 || c.SetupInput[len(c.SetupInput)-1] != "exit" || len(c.Refusals) == 0 {
			t.Errorf("%s: incomplete CLI %+v", n, c)
		}
	}
	if !slices.Equal(got, []string{"eos", "nxos"}) {
		t.Errorf("interactive platforms %v", got)
	}
}

// A descriptor hands out copies: changing what it returns changes neither its command set nor
// its allowlist.
func TestDescriptorIsImmutable(t *testing.T) {
	for _, d := range Descriptors() {
		cmds := d.Commands()
		first := cmds[0]
		cmds[0] = "reboot"
		if d.Commands()[0] != first || d.Allowlist().Allows("reboot") || !d.Allowlist().Allows(strings.ReplaceAll(strings.ReplaceAll(first, "{if}", "eth0"), "{n}", "1")) {
			t.Errorf("%s: the command set changed through a returned copy", d.Name())
		}
		if c, ok := d.CLI(); ok {
			c.Refusals[0] = "changed"
			if again, _ := d.CLI(); again.Refusals[0] == "changed" {
				t.Errorf("%s: the refusal markers changed through a returned copy", d.Name())
			}
		}
	}
}

// noCollector collects nothing; the registry's bookkeeping is under test.
type noCollector struct{}

func (noCollector) Plan(inventory.DeviceSpec) []string { return nil }
func (noCollector) Collect(context.Context, collectors.Runner, inventory.DeviceSpec, *topology.Device) error {
	return nil
}

// Two platforms claiming one containerlab kind (or one name) is a programming error, caught
// when the registry is built rather than by whichever import happens to run.
func TestDuplicateClaimsPanic(t *testing.T) {
	d := func(name string, kinds ...string) *collectors.Descriptor {
		m := map[string]func(string) string{}
		for _, k := range kinds {
			m[k] = nil
		}
		return collectors.Describe(collectors.Spec{Name: name, Role: topology.RoleSwitch, Commands: []string{"show"},
			Collector: noCollector{}, ClabKinds: m})
	}
	for what, ds := range map[string][]*collectors.Descriptor{
		"kind": {d("a", "k1"), d("b", "k2", "k1")},
		"name": {d("a"), d("a")},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("a duplicate %s did not panic", what)
				}
			}()
			collectors.NewRegistry(ds...)
		}()
	}
}

// Every platform's remediation for every check, on its example port and facts and under a
// recipe that differs from the default in every value, prints those values and no placeholder
// or default; on a host whose QoS tool is dcb, the QoS fixes are dcb commands alone.
func TestRemediationsUseTheEffectiveRecipe(t *testing.T) {
	custom := recipe.Default()
	custom.RoCEDSCP, custom.RoCEPriority, custom.CNPDSCP, custom.CNPPriority = 34, 4, 46, 7
	custom.RoCEToS = []int{136, 138}
	custom.HostMTU, custom.SwitchMTU = 8900, 9100
	def := recipe.Default()
	mtu := map[string]string{"sonic": "9100", "cumulus": "9100", "nxos": "9100", "eos": strconv.Itoa(eos.IPMTUFor(9100))}
	// want are the custom values a check's fix must name on the example port, per role.
	want := map[topology.Role]map[string][]string{
		topology.RoleHost: {
			"HOST-MTU": {"ens1f0np0 mtu 8900", "ens1f0np0.100 mtu 8900"}, "HOST-ROCE-MTU": {"mtu 8900"},
			"HOST-TRUST": {"mlnx_qos -i ens1f0np0 --trust dscp"}, "HOST-DSCP-MAP": {"set,34,4"}, "HOST-PFC": {"0,0,0,0,1,0,0,0"},
			"HOST-ECN": {"enable/4"}, "HOST-CNP": {"echo 46 ", "echo 7 "}, "HOST-TOS": {"echo 138 ", "-t 138", "mlx5_0/tc/1"},
			"HOST-GID-INDEX": {"NCCL_IB_GID_INDEX=3"}, "HOST-GID-V2": {"mlx5_0/ports/1"},
		},
		topology.RoleSwitch: {"SW-DSCP-MAP": {"34"}},
	}
	dcb := map[string][]string{"HOST-TRUST": {"dcb app add dev ens1f0np0 dscp-prio 34:4 46:7"},
		"HOST-DSCP-MAP": {"dcb app replace dev ens1f0np0 dscp-prio 34:4"}, "HOST-PFC": {"prio-pfc all:off 4:on"}}
	reg := Registry()
	for _, name := range reg.Names() {
		d, _ := reg.Get(name)
		if d.ExamplePort() == "" {
			t.Errorf("%s has no example port", name)
		}
		fixes := 0
		for _, c := range checks.Catalog() {
			for _, dcbx := range []string{recipe.DCBXStatic, recipe.DCBXDynamic} {
				r := withDCBX(custom, dcbx)
				in := d.Example(c.ID, r)
				if (in.Host == nil) == (in.Switch == nil) {
					t.Fatalf("%s: the example input has no facts of its role: %+v", name, in)
				}
				got := d.Remediation(in)
				if got == "" {
					continue
				}
				fixes++
				if bad := labcheck.Unrendered(got, r); len(bad) > 0 {
					t.Errorf("%s %s: unrendered %q in %q", name, c.ID, bad, got)
				}
				if strings.Contains(got, "9214") {
					t.Errorf("%s %s: default EOS MTU in %q", name, c.ID, got)
				}
				musts := want[d.Role()][c.ID]
				if strings.HasSuffix(c.ID, "-MTU") && d.Role() == topology.RoleSwitch {
					musts = []string{mtu[name]}
				}
				for _, w := range musts {
					if !strings.Contains(got, w) {
						t.Errorf("%s %s: %q lacks %q", name, c.ID, got, w)
					}
				}
				if len(musts) == 0 && dependsOnRecipe(c.ID) && got == d.Remediation(d.Example(c.ID, withDCBX(def, dcbx))) {
					t.Errorf("%s %s: the fix is the same under the default and a custom recipe: %q", name, c.ID, got)
				}
				if in.Host != nil && dcb[c.ID] != nil {
					in.Host.QoS.Value.Tool = "dcb"
					got := d.Remediation(in)
					for _, w := range dcb[c.ID] {
						if !strings.Contains(got, w) || strings.Contains(got, "mlnx_qos") {
							t.Errorf("%s %s on a dcb host: %q, want %q alone", name, c.ID, got, w)
						}
					}
				}
			}
		}
		if fixes == 0 {
			t.Errorf("%s writes no remediation at all", name)
		}
	}
}

// On switches CNPs go to whatever strict class the switch already gives the CNP DSCP: every
// platform's fix names that class (and its queue), and falls back to cnp_priority only when
// the CNP DSCP lands nowhere useful (unmapped, or in the RoCE class).
func TestCNPFixesFollowTheSwitchsClass(t *testing.T) {
	r := recipe.Default() // CNP DSCP 48, cnp_priority 6
	want := map[string]struct{ mapped, fallback []string }{
		"eos":     {[]string{"tx-queue 2\n      priority strict"}, []string{"tx-queue 6\n      priority strict"}},
		"nxos":    {[]string{"set qos-group 7", "c-out-8q-q2\n    priority level 1"}, []string{"set qos-group 6", "c-out-8q-q6\n    priority level 1"}},
		"cumulus": {[]string{"dscp 48 switch-priority 7", "traffic-class 2 mode strict"}, []string{"nv set qos roce mode lossless\nnv config apply"}},
		"sonic":   {[]string{"'QUEUE|%s|2' scheduler scheduler.strict"}, []string{"'QUEUE|%s|6' scheduler scheduler.strict"}},
	}
	reg := Registry()
	for name, w := range want {
		d, _ := reg.Get(name)
		for _, tc := range []struct {
			cnpClass int
			wants    []string
		}{{7, w.mapped}, {3, w.fallback}} {
			fixes := ""
			for _, id := range []string{"SW-CNP-QUEUE", "SW-TRUST", "SW-DSCP-MAP"} {
				in := d.Example(id, r)
				in.Switch.DSCPToTC.Value[48] = tc.cnpClass // 3 is the RoCE class
				in.Switch.TCToQueue.Value[7] = 2
				fixes += d.Remediation(in) + "\n"
			}
			for _, s := range tc.wants {
				if s = strings.ReplaceAll(s, "%s", d.ExamplePort()); !strings.Contains(fixes, s) {
					t.Errorf("%s, CNP DSCP in class %d: fixes lack %q:\n%s", name, tc.cnpClass, s, fixes)
				}
			}
			if name == "eos" && tc.cnpClass == 7 && strings.Contains(fixes, "qos map dscp 48") {
				t.Errorf("eos moves CNPs out of the class the switch already gives them:\n%s", fixes)
			}
		}
	}
}

// dependsOnRecipe are the switch checks whose fix names a priority, DSCP or queue.
func dependsOnRecipe(id string) bool {
	return slices.Contains([]string{"SW-PFC", "SW-ECN", "SW-CNP-QUEUE", "SW-BUFFER", "LINK-PFC"}, id)
}

func withDCBX(r recipe.Recipe, mode string) recipe.Recipe {
	r.DCBX = mode
	return r
}

// SONiC's PFC fix turns off exactly the extra priorities the port shows, by number.
func TestSONiCPFCFixNamesTheExtraPriorities(t *testing.T) {
	d, _ := Registry().Get("sonic")
	in := d.Example("SW-PFC", recipe.Default()) // PFC on 3 and 4
	got := d.Remediation(in)
	if !strings.Contains(got, "sudo config interface pfc priority Ethernet0 4 off") || strings.Contains(got, "Ethernet0 3 off") ||
		strings.Contains(got, "Ethernet0 5 off") || len(labcheck.Unrendered(got, in.Recipe)) > 0 {
		t.Errorf("SW-PFC fix %q", got)
	}
}

// Each platform names the ports containerlab wires (ethN) as its switch reports them, so
// declared links meet the port names of the facts and of LLDP.
func TestContainerlabPortNames(t *testing.T) {
	kinds := Registry().ClabKinds()
	for _, tc := range []struct{ kind, iface, want string }{
		{"ceos", "eth1", "Ethernet1"},
		{"arista_ceos", "eth12", "Ethernet12"},
		{"ceos", "et3", "Ethernet3"},
		{"ceos", "eth1_1", "Ethernet1/1"},
		{"ceos", "eth2_1_1", "Ethernet2/1/1"},
		{"ceos", "Ethernet1/1", "Ethernet1/1"},
		{"vr-veos", "eth1", "Ethernet1/1"},
		{"arista_veos", "eth3", "Ethernet1/3"},
		{"cisco_n9kv", "eth1", "Ethernet1/1"},
		{"vr-n9kv", "eth48", "Ethernet1/48"},
		{"cisco_n9kv", "Ethernet1/5", "Ethernet1/5"},
		{"sonic-vs", "eth1", "Ethernet0"},
		{"sonic-vs", "eth2", "Ethernet4"},
		{"sonic-vm", "eth9", "Ethernet32"},
		{"sonic-vs", "Ethernet8", "Ethernet8"},
		{"cvx", "swp1", "swp1"},
		{"nvidia_cumulusvx", "swp12", "swp12"},
		{"linux", "eth1", "eth1"},
		{"linux", "ens1f0np0", "ens1f0np0"},
		{"ceos", "eth0", "eth0"}, // management, never a data port
	} {
		k, ok := kinds[tc.kind]
		got := tc.iface
		if ok && k.Port != nil {
			got = k.Port(tc.iface)
		}
		if !ok || got != tc.want {
			t.Errorf("kind %q (known %v): port %q = %q, want %q", tc.kind, ok, tc.iface, got, tc.want)
		}
	}
}
