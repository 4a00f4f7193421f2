package topology

import (
	"regexp"
	"strings"
	"testing"
)

// hostLLDP is a host with audited ports and what its lldpd sees.
func hostLLDP(name string, ports []string, lldp Fact[[]LLDPNeighbor]) *Device {
	h := &HostFacts{LLDP: lldp}
	for _, p := range ports {
		h.Ports = append(h.Ports, &HostPort{Netdev: p})
	}
	return &Device{Name: name, Role: RoleHost, Reachable: true, Host: h}
}

// switchLLDP is a switch with ports and what its LLDP sees.
func switchLLDP(name string, ports []string, lldp Fact[[]LLDPNeighbor]) *Device {
	sw := &SwitchFacts{LLDP: lldp}
	for _, p := range ports {
		sw.Ports = append(sw.Ports, &SwitchPort{Name: p})
	}
	return &Device{Name: name, Role: RoleSwitch, Reachable: true, Switch: sw}
}

func seen(ns ...LLDPNeighbor) Fact[[]LLDPNeighbor] { return Known(ns, Evidence{}) }

// noLLDP is a switch that runs no LLDP (or whose LLDP could not be read).
var noLLDP = Unknown[[]LLDPNeighbor](Evidence{Command: "show lldp neighbors", Error: "LLDP is disabled"})

func linkStrings(ls []Link) string {
	var out []string
	for _, l := range ls {
		out = append(out, l.A.String()+"="+l.B.String()+"/"+l.Source)
	}
	return strings.Join(out, " ")
}

// A switch that runs no LLDP: the hosts' lldpd still finds their cables, by port ID (an
// NX-OS "Eth1/1" is Ethernet1/1), or by port description when the port ID is no port name
// (SONiC advertises its alias), with a domain on the system name.
func TestHostLLDPLinksWithoutSwitchLLDP(t *testing.T) {
	s := &Snapshot{Devices: []*Device{
		hostLLDP("gpu01", []string{"ens1f0np0", "ens1f1np1"}, seen(
			LLDPNeighbor{LocalPort: "ens1f0np0", SystemName: "leaf4.dc1.example.net", PortID: "Eth1/1", PortDescr: "gpu01:ens1f0np0"},
			LLDPNeighbor{LocalPort: "ens1f1np1", SystemName: "leaf1", PortID: "etp2", PortDescr: "Ethernet4"},
			LLDPNeighbor{LocalPort: "eno1", SystemName: "leaf1", PortID: "Ethernet8"}, // not an audited port
		)),
		hostLLDP("gpu02", []string{"ens1f0np0"}, seen(
			LLDPNeighbor{LocalPort: "ens1f0np0", SystemName: "oob-mgmt-switch", PortID: "swp10"},             // not in the inventory
			LLDPNeighbor{LocalPort: "ens1f0np0", SystemName: "leaf4", PortID: "Eth1/9", PortDescr: "nosuch"}, // no such switch port
		)),
		switchLLDP("leaf1", []string{"Ethernet0", "Ethernet4", "Ethernet8"}, noLLDP),
		switchLLDP("leaf4", []string{"Ethernet1/1", "Ethernet1/2"}, noLLDP),
	}}
	got := linkStrings(ResolveLinks(s))
	want := "gpu01:ens1f0np0=leaf4:Ethernet1/1/lldp gpu01:ens1f1np1=leaf1:Ethernet4/lldp"
	if got != want {
		t.Errorf("links %s\nwant %s", got, want)
	}
}

// Seen from both ends, a link is kept once, as the switch reports it.
func TestHostAndSwitchLLDPDeduplicated(t *testing.T) {
	s := &Snapshot{Devices: []*Device{
		hostLLDP("gpu01", []string{"ens1f0np0"}, seen(LLDPNeighbor{LocalPort: "ens1f0np0", SystemName: "leaf2", PortID: "swp1", PortDescr: "swp1"})),
		switchLLDP("leaf2", []string{"swp1"}, seen(LLDPNeighbor{LocalPort: "swp1", SystemName: "gpu01", PortID: "0c:42:a1:6b:01:4c", PortDescr: "ens1f0np0"})),
	}}
	if got, want := linkStrings(ResolveLinks(s)), "leaf2:swp1=gpu01:ens1f0np0/lldp"; got != want {
		t.Errorf("links %s\nwant %s", got, want)
	}
}

// Where the host and the switches disagree about a port, the switches' view is kept, on the
// host's end and on the switch's.
func TestSwitchLLDPWinsOverHostLLDP(t *testing.T) {
	s := &Snapshot{Devices: []*Device{
		hostLLDP("gpu01", []string{"p0", "p1"}, seen(
			LLDPNeighbor{LocalPort: "p0", SystemName: "leaf2", PortID: "swp1"}, // leaf1 sees p0 on Ethernet0
			LLDPNeighbor{LocalPort: "p1", SystemName: "leaf1", PortID: "Ethernet4"},
		)),
		hostLLDP("gpu02", []string{"p0"}, noLLDP),
		switchLLDP("leaf1", []string{"Ethernet0", "Ethernet4"}, seen(
			LLDPNeighbor{LocalPort: "Ethernet0", SystemName: "gpu01", PortDescr: "p0"},
			LLDPNeighbor{LocalPort: "Ethernet4", SystemName: "gpu02", PortDescr: "p0"}, // gpu01 says p1 is here
		)),
		switchLLDP("leaf2", []string{"swp1"}, noLLDP),
	}}
	if got, want := linkStrings(ResolveLinks(s)), "leaf1:Ethernet0=gpu01:p0/lldp leaf1:Ethernet4=gpu02:p0/lldp"; got != want {
		t.Errorf("links %s\nwant %s", got, want)
	}
}

// A host whose LLDP could not be read, or whose neighbour is not a switch, adds nothing.
func TestHostLLDPIgnored(t *testing.T) {
	s := &Snapshot{Devices: []*Device{
		hostLLDP("gpu01", []string{"p0"}, Unknown[[]LLDPNeighbor](Evidence{Error: "permission denied"})),
		hostLLDP("gpu02", []string{"p0"}, seen(LLDPNeighbor{LocalPort: "p0", SystemName: "gpu03", PortID: "p0"})), // back to back
		hostLLDP("gpu03", []string{"p0"}, seen()),
		{Name: "leaf1", Role: RoleSwitch, Error: "unreachable"}, // no facts: its ports are unknown
		hostLLDP("gpu04", []string{"p0"}, seen(LLDPNeighbor{LocalPort: "p0", SystemName: "leaf1", PortID: "Ethernet0"})),
	}}
	if got := ResolveLinks(s); len(got) != 0 {
		t.Errorf("links %s, want none", linkStrings(got))
	}
}

// A declaration is checked against the host's view when no switch reports the port.
func TestLinkChecksWithHostLLDP(t *testing.T) {
	s := &Snapshot{
		Devices: []*Device{
			hostLLDP("gpu01", []string{"p0", "p1"}, seen(
				LLDPNeighbor{LocalPort: "p0", SystemName: "leaf1", PortID: "Ethernet0"},
				LLDPNeighbor{LocalPort: "p1", SystemName: "leaf1", PortID: "Ethernet8"},
			)),
			switchLLDP("leaf1", []string{"Ethernet0", "Ethernet4", "Ethernet8"}, noLLDP),
		},
		Links: []Link{
			{A: PortRef{"gpu01", "p0"}, B: PortRef{"leaf1", "Ethernet0"}, Source: "inventory"},
			{A: PortRef{"leaf1", "Ethernet4"}, B: PortRef{"gpu01", "p1"}, Source: "inventory"}, // LLDP: Ethernet8
		},
	}
	dls := LinkChecks(s)
	if len(dls) != 2 {
		t.Fatalf("%d declared links", len(dls))
	}
	if dls[0].Seen == nil || !dls[0].Agrees {
		t.Errorf("gpu01:p0 declared as seen: %+v", dls[0])
	}
	if dls[1].Seen == nil || dls[1].Agrees || dls[1].Seen.A.String() != "gpu01:p1" || dls[1].Seen.B.String() != "leaf1:Ethernet8" {
		t.Errorf("gpu01:p1 declared on Ethernet4, seen on Ethernet8: %+v", dls[1])
	}
	if got, want := linkStrings(ResolveLinks(s)), "gpu01:p0=leaf1:Ethernet0/inventory gpu01:p1=leaf1:Ethernet8/lldp"; got != want {
		t.Errorf("links %s\nwant %s", got, want)
	}
}

// sonicLeaf is a SONiC switch whose ports have CONFIG_DB aliases, the names its lldpd
// announces them by.
func sonicLeaf(name string, lldp Fact[[]LLDPNeighbor], nameAlias ...string) *Device {
	d := switchLLDP(name, nil, lldp)
	for i := 0; i < len(nameAlias); i += 2 {
		d.Switch.Ports = append(d.Switch.Ports, &SwitchPort{Name: nameAlias[i], Aliases: []string{nameAlias[i+1]}})
	}
	return d
}

// SONiC announces a port by its alias ("etp1", a `local` port ID) and by a description that
// names no port: with the switch's own LLDP unknown, the hosts' view finds the cable by alias.
// An alias that spells another port's name names the aliased port, as SONiC means it.
func TestHostLLDPLinksToSONiCByAlias(t *testing.T) {
	s := &Snapshot{Devices: []*Device{
		hostLLDP("gpu01", []string{"ens1f0np0", "ens1f1np1"}, seen(
			LLDPNeighbor{LocalPort: "ens1f0np0", SystemName: "leaf1", PortID: "etp1", PortDescr: "gpu01:ens1f0np0"},
			LLDPNeighbor{LocalPort: "ens1f1np1", SystemName: "leaf1", PortID: "ETP2", PortDescr: "gpu01:ens1f1np1"},
		)),
		hostLLDP("gpu02", []string{"p0", "p1"}, seen(
			LLDPNeighbor{LocalPort: "p0", SystemName: "leaf3", PortID: "Ethernet4", PortDescr: "gpu02:p0"},
			LLDPNeighbor{LocalPort: "p1", SystemName: "leaf1", PortID: "etp9", PortDescr: "gpu02:p1"}, // no such alias
		)),
		sonicLeaf("leaf1", noLLDP, "Ethernet0", "etp1", "Ethernet4", "etp2"),
		sonicLeaf("leaf3", noLLDP, "Ethernet0", "Ethernet4", "Ethernet4", "Ethernet8"),
	}}
	got := linkStrings(ResolveLinks(s))
	want := "gpu01:ens1f0np0=leaf1:Ethernet0/lldp gpu01:ens1f1np1=leaf1:Ethernet4/lldp gpu02:p0=leaf3:Ethernet0/lldp"
	if got != want {
		t.Errorf("links %s\nwant %s", got, want)
	}
}

// A switch that sees a SONiC neighbour sees it by alias too.
func TestSwitchLLDPToSONiCByAlias(t *testing.T) {
	s := &Snapshot{Devices: []*Device{
		switchLLDP("spine1", []string{"swp1"}, seen(LLDPNeighbor{LocalPort: "swp1", SystemName: "leaf1", PortID: "etp13", PortDescr: "spine1:swp1"})),
		sonicLeaf("leaf1", noLLDP, "Ethernet0", "etp1", "Ethernet48", "etp13"),
	}}
	if got, want := linkStrings(ResolveLinks(s)), "spine1:swp1=leaf1:Ethernet48/lldp"; got != want {
		t.Errorf("links %s\nwant %s", got, want)
	}
}

// hostMACs is a host whose audited ports have MACs (netdev, MAC pairs); an empty MAC leaves
// the port's link unread.
func hostMACs(name string, netdevMAC ...string) *Device {
	h := &HostFacts{LLDP: noLLDP}
	for i := 0; i < len(netdevMAC); i += 2 {
		p := &HostPort{Netdev: netdevMAC[i], Link: Unknown[Netdev](Evidence{Error: "ip: permission denied"})}
		if netdevMAC[i+1] != "" {
			p.Link = Known(Netdev{Name: netdevMAC[i], MAC: netdevMAC[i+1]}, Evidence{})
		}
		h.Ports = append(h.Ports, p)
	}
	return &Device{Name: name, Role: RoleHost, Reachable: true, Host: h}
}

// Stock lldpd announces a host port by its MAC (port ID subtype mac) and puts the netdev name
// only in the description, which `nv show interface lldp` does not show. Switches spell the
// MAC with colons (lldpd, NVUE), dotted (EOS, NX-OS) or dashes; each names the netdev with
// that MAC, not the host's first port.
func TestSwitchLLDPSeesHostByMAC(t *testing.T) {
	s := &Snapshot{Devices: []*Device{
		hostMACs("gpu01", "ens1f0np0", "0c:42:a1:6b:01:4c", "ens1f1np1", "0c:42:a1:6b:01:4d"),
		hostMACs("gpu02", "ens1f0np0", "0c:42:a1:6b:02:4c", "ens1f1np1", "0c:42:a1:6b:02:4d"),
		hostMACs("gpu03", "ens1f0np0", "0c:42:a1:6b:03:4c", "ens1f1np1", "0c:42:a1:6b:03:4d"),
		switchLLDP("leaf2", []string{"swp1", "swp2", "swp3"}, seen(
			LLDPNeighbor{LocalPort: "swp1", SystemName: "gpu01", PortID: "0c:42:a1:6b:01:4d"}, // NVUE: no description
			LLDPNeighbor{LocalPort: "swp2", SystemName: "gpu02", PortID: "0C-42-A1-6B-02-4D"},
			LLDPNeighbor{LocalPort: "swp3", SystemName: "gpu03", PortID: "0c:42:a1:6b:09:4d"}, // no audited netdev has it
		)),
		switchLLDP("leaf3", []string{"Ethernet1", "Ethernet2"}, seen(
			LLDPNeighbor{LocalPort: "Ethernet1", SystemName: "gpu01", PortID: "0c42.a16b.014c", PortDescr: "ens1f0np0", ChassisID: "0c42.a16b.014c"},
			LLDPNeighbor{LocalPort: "Ethernet2", SystemName: "gpu02", PortID: "0c42.a16b.024c", PortDescr: "wrong-descr"}, // the MAC decides
		)),
	}}
	got := linkStrings(ResolveLinks(s))
	want := "leaf2:swp1=gpu01:ens1f1np1/lldp leaf2:swp2=gpu02:ens1f1np1/lldp leaf3:Ethernet1=gpu01:ens1f0np0/lldp leaf3:Ethernet2=gpu02:ens1f0np0/lldp"
	if got != want {
		t.Errorf("links %s\nwant %s", got, want)
	}
}

// A MAC that names no single audited netdev leaves the choice to the description: bond
// members share the bond's MAC, and a port whose link could not be read has no MAC to match.
func TestHostMACAmbiguousOrUnknown(t *testing.T) {
	s := &Snapshot{Devices: []*Device{
		hostMACs("gpu01", "ens1f0np0", "0c:42:a1:6b:01:4c", "ens1f1np1", "0c:42:a1:6b:01:4c"), // bonded
		hostMACs("gpu02", "ens1f0np0", "", "ens1f1np1", "0c:42:a1:6b:02:4d"),
		switchLLDP("leaf4", []string{"Ethernet1/1", "Ethernet1/2", "Ethernet1/3", "Ethernet1/4"}, seen(
			LLDPNeighbor{LocalPort: "Ethernet1/1", SystemName: "gpu01", PortID: "0c42.a16b.014c", PortDescr: "ens1f1np1"},
			LLDPNeighbor{LocalPort: "Ethernet1/2", SystemName: "gpu01", PortID: "0c42.a16b.014c"}, // which member: unknown
			LLDPNeighbor{LocalPort: "Ethernet1/3", SystemName: "gpu02", PortID: "0c42.a16b.024c", PortDescr: "ens1f0np0"},
			LLDPNeighbor{LocalPort: "Ethernet1/4", SystemName: "gpu02", PortID: "0c42.a16b.024d"},
		)),
	}}
	got := linkStrings(ResolveLinks(s))
	want := "leaf4:Ethernet1/1=gpu01:ens1f1np1/lldp leaf4:Ethernet1/3=gpu02:ens1f0np0/lldp leaf4:Ethernet1/4=gpu02:ens1f1np1/lldp"
	if got != want {
		t.Errorf("links %s\nwant %s", got, want)
	}
}

// An unreachable host is linked by the port name its neighbour gives, never by a MAC in any
// spelling.
func TestUnreachableHostNotNamedByMAC(t *testing.T) {
	s := &Snapshot{Devices: []*Device{
		{Name: "gpu01", Role: RoleHost, Error: "unreachable"},
		{Name: "gpu02", Role: RoleHost, Error: "unreachable"},
		switchLLDP("leaf3", []string{"Ethernet1", "Ethernet2", "Ethernet3"}, seen(
			LLDPNeighbor{LocalPort: "Ethernet1", SystemName: "gpu01", PortID: "0c42.a16b.014c", PortDescr: "ens1f0np0"},
			LLDPNeighbor{LocalPort: "Ethernet2", SystemName: "gpu02", PortID: "0c42.a16b.024c"},
			LLDPNeighbor{LocalPort: "Ethernet3", SystemName: "gpu02", PortID: "0c-42-a1-6b-02-4d"},
		)),
	}}
	if got, want := linkStrings(ResolveLinks(s)), "leaf3:Ethernet1=gpu01:ens1f0np0/lldp"; got != want {
		t.Errorf("links %s\nwant %s", got, want)
	}
}

func TestNormalizeMAC(t *testing.T) {
	for in, want := range map[string]string{
		"0c:42:a1:6b:1a:2c":   "0c42a16b1a2c",
		"0C:42:A1:6B:1A:2C":   "0c42a16b1a2c",
		"0c-42-a1-6b-1a-2c":   "0c42a16b1a2c",
		"1ce7.1003.5413":      "1ce710035413",
		" 48:b0:2d:76:ee:8e ": "48b02d76ee8e",
		"0c:42-a1:6b:1a:2c":   "", // mixed separators
		"0c:42:a1:6b:1a":      "", // five octets
		"0c42a16b1a2c":        "",
		"1ce7.1003.541":       "",
		"ens1f0np0":           "",
		"Ethernet1/1":         "",
		"etp1":                "",
		"":                    "",
	} {
		if got := normalizeMAC(in); got != want {
			t.Errorf("normalizeMAC(%q) = %q, want %q", in, got, want)
		}
	}
}

// normalizeMAC matches by hand what this expression and a Replacer did before; the fuzz
// seeds below cover every form, separator and length.
var macFormsExpression = regexp.MustCompile(`(?i)^(?:[0-9a-f]{2}(?::[0-9a-f]{2}){5}|[0-9a-f]{2}(?:-[0-9a-f]{2}){5}|[0-9a-f]{4}(?:\.[0-9a-f]{4}){2})$`)

func normalizeMACByExpression(s string) string {
	s = strings.TrimSpace(s)
	if !macFormsExpression.MatchString(s) {
		return ""
	}
	return strings.ToLower(strings.NewReplacer(":", "", "-", "", ".", "").Replace(s))
}

func FuzzNormalizeMACMatchesExpression(f *testing.F) {
	for _, seed := range []string{"0c:42:a1:6b:1a:2c", "0C-42-A1-6B-1A-2C", "1ce7.1003.5413", "1CE7.1003.541G",
		"0c:42:a1:6b:1a:2", "0c:42:a1:6b:1a:2c:", "0c.42.a1.6b.1a.2c", "0c:42-a1:6b:1a:2c", "1ce7:1003:5413", " 1ce7.1003.5413\t", "ethernet1/1/1/1/1"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := normalizeMAC(s), normalizeMACByExpression(s); got != want {
			t.Errorf("normalizeMAC(%q) = %q, the expression says %q", s, got, want)
		}
	})
}

// NormalizePort matches short Ethernet names by hand; it must fold exactly what the
// expression it replaced, ^(?:et|eth)(\d.*)$ over the lower-cased, trimmed name, folded.
func TestNormalizePortMatchesExpression(t *testing.T) {
	re := regexp.MustCompile(`^(?:et|eth)(\d.*)$`)
	want := func(name string) string {
		n := strings.ToLower(strings.TrimSpace(name))
		if m := re.FindStringSubmatch(n); m != nil {
			return "ethernet" + m[1]
		}
		return n
	}
	for _, name := range []string{"Ethernet1/1", "Et1/1", "eth1/1", "Eth1/49/1", " ET7 ", "swp1", "Ethernet0",
		"et", "eth", "etx1", "ethx1", "eth-1", "Eth1\n/2", "et1\n", "ETH0.100", "e1", "", "ethernet", "Port-Channel1",
		"et٣", "ÉTH1", "eth1/1\r"} {
		if got := NormalizePort(name); got != want(name) {
			t.Errorf("NormalizePort(%q) = %q, want %q", name, got, want(name))
		}
	}
}

func FuzzNormalizePort(f *testing.F) {
	re := regexp.MustCompile(`^(?:et|eth)(\d.*)$`)
	for _, s := range []string{"Et1/1", "eth1\n2", "swp1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		n := strings.ToLower(strings.TrimSpace(name))
		want := n
		if m := re.FindStringSubmatch(n); m != nil {
			want = "ethernet" + m[1]
		}
		if got := NormalizePort(name); got != want {
			t.Fatalf("NormalizePort(%q) = %q, want %q", name, got, want)
		}
	})
}
