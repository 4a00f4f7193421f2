package lab

import (
	"context"
	"fmt"
	"net/netip"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"

	"github.com/roceaudit/roceaudit/lab/cumulus"
	"github.com/roceaudit/roceaudit/lab/eos"
	"github.com/roceaudit/roceaudit/lab/linuxhost"
	"github.com/roceaudit/roceaudit/lab/nxos"
	"github.com/roceaudit/roceaudit/lab/sonic"
	"github.com/roceaudit/roceaudit/lab/switchstate"
)

func TestParseGenerate(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Generate
	}{
		{"hosts=6,leaves=3,spines=2", Generate{6, 3, 2, 0}},
		{"spines=2,hosts=6,leaves=3", Generate{6, 3, 2, 0}},
		{"hosts=1,leaves=1,spines=1", Generate{1, 1, 1, 0}},
		{"hosts=16384,leaves=256,spines=64", Generate{16384, 256, 64, 0}},
		{"hosts=032,leaves=4,spines=2", Generate{32, 4, 2, 0}},
	} {
		got, err := ParseGenerate(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseGenerate(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
		if again, err := ParseGenerate(got.String()); err != nil || again != got {
			t.Errorf("ParseGenerate(%q.String()) = %+v, %v", c.in, again, err)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"", "empty value"},
		{"hosts=6", "leaves= is missing"},
		{"hosts=6,leaves=3", "spines= is missing"},
		{"hosts=6,leaves=3,spines=2,", "empty item"},
		{"hosts=6,,leaves=3,spines=2", "empty item"},
		{"hosts6,leaves=3,spines=2", `"hosts6" is not key=value`},
		{"hosts=6,leaves=3,racks=2", `unknown key "racks"`},
		{"Hosts=6,leaves=3,spines=2", `unknown key "Hosts"`},
		{"hosts=6,leaves=3,spines=2,hosts=7", "hosts is given twice"},
		{"hosts=,leaves=3,spines=2", `hosts: "" is not a positive integer`},
		{"hosts=x,leaves=3,spines=2", `hosts: "x" is not a positive integer`},
		{"hosts=-1,leaves=3,spines=2", `hosts: "-1" is not a positive integer`},
		{"hosts=+6,leaves=3,spines=2", `hosts: "+6" is not a positive integer`},
		{"hosts= 6,leaves=3,spines=2", `hosts: " 6" is not a positive integer`},
		{"hosts=6.5,leaves=3,spines=2", `hosts: "6.5" is not a positive integer`},
		{"hosts=0,leaves=3,spines=2", "hosts=0 is out of range 1..16384"},
		{"hosts=16385,leaves=3,spines=2", "hosts=16385 is out of range 1..16384"},
		{"hosts=6,leaves=257,spines=2", "leaves=257 is out of range 1..256"},
		{"hosts=6,leaves=0,spines=2", "leaves=0 is out of range 1..256"},
		{"hosts=6,leaves=3,spines=65", "spines=65 is out of range 1..64"},
		{"hosts=99999999999999999999999,leaves=3,spines=2", "hosts=99999999999999999999999 is out of range"},
	} {
		if g, err := ParseGenerate(c.in); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseGenerate(%q) = %+v, %v; want an error with %q", c.in, g, err, c.want)
		}
	}
}

func TestGenerateValidate(t *testing.T) {
	if err := (Generate{6, 3, 2, 0}).Validate(); err != nil {
		t.Error(err)
	}
	for _, g := range []Generate{{0, 3, 2, 0}, {6, 0, 2, 0}, {6, 3, 0, 0}, {-1, 3, 2, 0}, {16385, 1, 1, 0}, {1, 257, 1, 0}, {1, 1, 65, 0}} {
		if err := g.Validate(); err == nil {
			t.Errorf("%+v validates", g)
		}
	}
}

// A generated fabric is a Clos: both rails of every host on leaves of their own rail, spread
// round-robin, every leaf cabled once to every spine, every switch port cabled once, platforms
// cycling over leaves then spines, each switch valid on its platform and seeing its cables
// over LLDP.
func TestGeneratedFabric(t *testing.T) {
	validate := map[string]func(*switchstate.Switch) error{
		"sonic": sonic.Validate, "cumulus": cumulus.Validate, "eos": eos.Validate, "nxos": nxos.Validate,
	}
	// SONiC ports step by four lanes (Ethernet0, Ethernet4, ...); the others count from 1.
	portName := map[string]*regexp.Regexp{
		"sonic": regexp.MustCompile(`^Ethernet(0|[1-9][0-9]*)$`), "cumulus": regexp.MustCompile(`^swp[1-9][0-9]*$`),
		"eos": regexp.MustCompile(`^Ethernet[1-9][0-9]*$`), "nxos": regexp.MustCompile(`^Ethernet1/[1-9][0-9]*$`),
	}
	for _, g := range []Generate{{1, 1, 1, 0}, {6, 3, 2, 0}, {32, 4, 2, 0}, {7, 2, 3, 0}, {300, 5, 3, 0}} {
		t.Run(g.String(), func(t *testing.T) {
			f := g.fabric()
			if len(f.switches) != g.Leaves+g.Spines {
				t.Fatalf("%d switches", len(f.switches))
			}
			leafNo := map[string]int{}
			for i, s := range f.switches {
				if want := generatedPlatforms[i%4]; s.platform != want {
					t.Errorf("%s is %s, want %s", s.name, s.platform, want)
				}
				for j, p := range s.ports {
					if !portName[s.platform].MatchString(p) || s.platform == "sonic" && p != fmt.Sprintf("Ethernet%d", 4*j) {
						t.Errorf("%s: %s is not a %s port name", s.name, p, s.platform)
					}
				}
				if i < g.Leaves {
					leafNo[s.name] = i
				}
			}
			used := map[end]bool{}
			perLeaf := map[[2]int]int{} // (rail, leaf) -> host ports
			spineLinks := map[[2]string]int{}
			hostPorts := 0
			for _, c := range f.cables {
				for _, e := range c {
					if used[e] {
						t.Errorf("%v cabled twice", e)
					}
					used[e] = true
				}
				if strings.HasPrefix(c[0].device, "gpu") {
					hostPorts++
					rail := map[string]int{linuxhost.Port0: 0, linuxhost.Port1: 1}[c[0].port]
					l, ok := leafNo[c[1].device]
					if !ok {
						t.Fatalf("host cable %v does not end on a leaf", c)
					}
					if g.Leaves > 1 && l%2 != rail {
						t.Errorf("%v: rail %d on leaf%d", c, rail, l+1)
					}
					perLeaf[[2]int{rail, l}]++
				} else {
					spineLinks[[2]string{c[0].device, c[1].device}]++
				}
			}
			if hostPorts != 2*g.Hosts {
				t.Errorf("%d host ports cabled, want %d", hostPorts, 2*g.Hosts)
			}
			for rail := range 2 {
				var counts []int // host ports per leaf of the rail (every leaf when there is one)
				for l := range g.Leaves {
					if g.Leaves == 1 || l%2 == rail {
						counts = append(counts, perLeaf[[2]int{rail, l}])
					}
				}
				if slices.Max(counts)-slices.Min(counts) > 1 {
					t.Errorf("rail %d: host ports per leaf %v, not round-robin", rail, counts)
				}
			}
			for l := range g.Leaves {
				for s := range g.Spines {
					if n := spineLinks[[2]string{fmt.Sprintf("leaf%d", l+1), fmt.Sprintf("spine%d", s+1)}]; n != 1 {
						t.Errorf("leaf%d-spine%d: %d cables", l+1, s+1, n)
					}
				}
			}
			if len(spineLinks) != g.Leaves*g.Spines {
				t.Errorf("switch links %v", spineLinks)
			}
			for _, s := range f.switches {
				for _, p := range s.ports {
					if !used[end{s.name, p}] {
						t.Errorf("%s:%s has no cable", s.name, p)
					}
				}
			}

			far := map[end]end{}
			for _, c := range f.cables {
				far[c[0]], far[c[1]] = c[1], c[0]
			}
			devs := g.build(0)
			if len(devs) != g.Hosts+g.Leaves+g.Spines {
				t.Fatalf("%d devices", len(devs))
			}
			for _, d := range devs {
				if d.sw == nil {
					continue
				}
				if err := validate[d.platform](d.sw); err != nil {
					t.Errorf("%s: %v", d.name, err)
				}
				for _, p := range d.sw.Ports {
					want := far[end{d.name, p.Name}]
					// PortID is how the far NOS announces the port (SONiC: its alias); PortDescr its name.
					if p.Neighbor == nil || p.Neighbor.SystemName != want.device || p.Neighbor.PortDescr != want.port {
						t.Errorf("%s:%s LLDP neighbour %+v, cabled to %v", d.name, p.Name, p.Neighbor, want)
					}
				}
			}
		})
	}
}

// Hosts past the profile's 250 keep unique addresses, MACs and GUIDs, and their GID tables
// follow; hosts up to 250 are the profile's own.
func TestGeneratedHostsAreUnique(t *testing.T) {
	g := Generate{Hosts: 520, Leaves: 2, Spines: 1}
	seen := map[string]string{}
	unique := func(host, what string) {
		if other, dup := seen[what]; dup {
			t.Errorf("%s and %s share %s", other, host, what)
		}
		seen[what] = host
	}
	ctx := context.Background()
	for i, d := range g.hosts() {
		h := i + 1
		if d.name != fmt.Sprintf("gpu%03d", h) {
			t.Fatalf("host %d is named %s", h, d.name)
		}
		for _, nd := range []string{"eno1", linuxhost.Port0, linuxhost.Port1} {
			n := d.host.Netdev(nd)
			unique(d.name, n.MAC.String())
			for _, a := range n.Addrs {
				unique(d.name, a.String())
			}
		}
		for _, r := range d.host.RDMA {
			unique(d.name, fmt.Sprint("guid ", r.NodeGUID))
		}
		if h == 1 || h == 137 || h == 250 { // a sample: comparing every host is slow under -race
			profile := linuxhost.NewGPUHost(d.name, h)
			for _, cmd := range []string{"ip -d -j addr show", "ibv_devinfo -v", commands()["gids"]} {
				o1, _, _ := profile.Exec(ctx, cmd)
				o2, _, _ := d.host.Exec(ctx, cmd)
				if o1 != o2 {
					t.Errorf("%s differs from the profile's host %d in %q", d.name, h, cmd)
				}
			}
		}
	}
	h := g.hosts()[299] // gpu300: block 1, number 50
	want := map[string]string{linuxhost.Port0: "10.1.1.50", linuxhost.Port1: "10.2.1.50"}
	for nd, ip := range want {
		_, p := h.host.Port(nd)
		table := h.host.GIDTable(p)
		mac := h.host.Netdev(nd).MAC
		if len(table) != 4 || table[0].Addr != linuxhost.LinkLocal(mac) ||
			table[3].Addr != netip.AddrFrom16(netip.MustParseAddr(ip).As16()) || table[3].Type != linuxhost.GIDTypeV2 {
			t.Errorf("gpu300 %s GID table %+v", nd, table)
		}
		if mac.String() != map[string]string{linuxhost.Port0: "0c:42:a1:6c:2c:4c", linuxhost.Port1: "0c:42:a1:6c:2c:4d"}[nd] {
			t.Errorf("gpu300 %s MAC %s", nd, mac)
		}
	}
}

func TestGeneratedPaths(t *testing.T) {
	for _, c := range []struct {
		g    Generate
		want [][2]string
	}{
		{Generate{1, 2, 1, 0}, nil},
		{Generate{2, 1, 1, 0}, [][2]string{{"gpu01:ens1f0np0", "gpu02:ens1f0np0"}, {"gpu02:ens1f1np1", "gpu01:ens1f1np1"}}},
		{Generate{6, 2, 2, 0}, [][2]string{{"gpu01:ens1f0np0", "gpu02:ens1f1np1"}, {"gpu06:ens1f1np1", "gpu01:ens1f0np0"}}},
		{Generate{6, 3, 2, 0}, [][2]string{{"gpu01:ens1f0np0", "gpu02:ens1f0np0"}, {"gpu06:ens1f1np1", "gpu01:ens1f0np0"}}},
		{Generate{32, 4, 2, 0}, [][2]string{{"gpu01:ens1f0np0", "gpu02:ens1f0np0"}, {"gpu32:ens1f1np1", "gpu01:ens1f1np1"}}},
	} {
		if got := c.g.Paths(); !cmp.Equal(got, c.want) {
			t.Errorf("%s: paths %v, want %v", c.g, got, c.want)
		}
	}
	// Wherever there are two leaves, both ends of every path are on different ones.
	for _, g := range []Generate{{2, 2, 1, 0}, {6, 3, 2, 0}, {256, 16, 4, 0}, {5, 7, 1, 0}} {
		leafOf := map[string]string{}
		for _, c := range g.fabric().cables {
			leafOf[c[0].device+":"+c[0].port] = c[1].device
		}
		for _, p := range g.Paths() {
			if leafOf[p[0]] == "" || leafOf[p[0]] == leafOf[p[1]] || strings.Split(p[0], ":")[0] == strings.Split(p[1], ":")[0] {
				t.Errorf("%s: path %v on %s and %s", g, p, leafOf[p[0]], leafOf[p[1]])
			}
		}
	}
}

func TestStartGenerated(t *testing.T) {
	if _, err := Start(context.Background(), Options{Scenario: ScenarioBroken, Generate: &Generate{1, 1, 1, 0}, Dir: t.TempDir()}); err == nil ||
		!strings.Contains(err.Error(), "mutually exclusive") {
		t.Errorf("scenario and generate: %v", err)
	}
	if _, err := Start(context.Background(), Options{Generate: &Generate{0, 1, 1, 0}, Dir: t.TempDir()}); err == nil ||
		!strings.Contains(err.Error(), "hosts=0 is out of range") {
		t.Errorf("hosts=0: %v", err)
	}

	g := Generate{Hosts: 6, Leaves: 3, Spines: 2}
	l, err := Start(context.Background(), Options{Generate: &g, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if l.Scenario != ScenarioGenerated || l.Generated == nil || *l.Generated != g || len(l.Devices) != 11 {
		t.Fatalf("lab %q %+v with %d devices", l.Scenario, l.Generated, len(l.Devices))
	}
	raw, err := os.ReadFile(l.InventoryPath)
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(raw), "\n")
	if first != "# roceaudit lab, generated Clos (hosts=6,leaves=3,spines=2): 11 simulated devices on 127.0.0.1 (not a real fabric)." {
		t.Errorf("inventory comment %q", first)
	}
	var inv struct {
		Hosts    []struct{ Name string }
		Switches []struct{ Name, Platform string }
		Links    [][2]string
	}
	if err := yaml.Unmarshal(raw, &inv); err != nil {
		t.Fatal(err)
	}
	platforms := map[string]bool{}
	for _, s := range inv.Switches {
		platforms[s.Platform] = true
	}
	if len(inv.Hosts) != 6 || inv.Hosts[5].Name != "gpu06" || len(inv.Switches) != 5 || len(platforms) != 4 {
		t.Errorf("inventory hosts %v switches %v", inv.Hosts, inv.Switches)
	}
	want := [][2]string{{"gpu01:ens1f0np0", "leaf1:Ethernet0"}, {"gpu01:ens1f1np1", "leaf2:swp1"}}
	if !cmp.Equal(inv.Links, want) || !cmp.Equal(l.DeclaredLinks(), want) {
		t.Errorf("links %v / %v, want %v", inv.Links, l.DeclaredLinks(), want)
	}
	if !cmp.Equal(l.Paths(), g.Paths()) || !strings.Contains(string(raw), "#   - [gpu01:ens1f0np0, gpu02:ens1f0np0]\n") {
		t.Errorf("paths %v\n%s", l.Paths(), raw)
	}

	c, err := dial(t, l, "gpu06")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if out, _, exit := runSSH(t, c, "ibv_devinfo -v"); exit != 0 || !strings.Contains(out, "GID[  3]:\t\t::ffff:10.1.0.6, RoCE v2\n") {
		t.Errorf("gpu06 ibv_devinfo: %d\n%.400s", exit, out)
	}
	sw, err := dial(t, l, "spine1")
	if err != nil {
		t.Fatal(err)
	}
	sw.Close()
}
