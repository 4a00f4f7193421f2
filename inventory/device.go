package inventory

import (
	"fmt"
	"net"
	"net/netip"
	"regexp"
	"slices"
	"strings"

	"github.com/roceaudit/roceaudit/topology"
	"gopkg.in/yaml.v3"
)

// Device keys besides the connection keys.
var (
	hostKeys   = append([]string{"name", "address", "platform", "interfaces", "gid_index"}, connKeys...)
	switchKeys = append([]string{"name", "address", "platform"}, connKeys...)
)

// sectionOf is the top-level key that lists devices of a role.
func sectionOf(r topology.Role) string {
	if r == topology.RoleSwitch {
		return "switches"
	}
	return "hosts"
}

// defaultHostPlatform is the platform of a host that names none.
const defaultHostPlatform = "linux"

// devices reads the hosts: or switches: list.
func (p *parser) devices(n *yaml.Node, role topology.Role, base connSettings) []DeviceSpec {
	if isNull(n) {
		return nil
	}
	items, ok := p.list(n, sectionOf(role), "a list of devices")
	if !ok {
		return nil
	}
	var out []DeviceSpec
	for _, it := range items {
		if d, ok := p.device(it, role, base); ok {
			out = append(out, d)
		}
	}
	return out
}

// device reads one device. ok is false when it has no usable name (nothing can refer to it).
func (p *parser) device(n *yaml.Node, role topology.Role, base connSettings) (DeviceSpec, bool) {
	allowed, hints := hostKeys, connHints()
	if role == topology.RoleSwitch {
		allowed = switchKeys
		hints["interfaces"] = "interfaces are only for hosts (switch ports to audit come from links and LLDP)"
		hints["gid_index"] = "gid_index is only for hosts"
	}
	what := "a " + string(role)
	m, ok := p.mapping(n, what, allowed, hints)
	if !ok {
		return DeviceSpec{}, false
	}
	d := DeviceSpec{Role: role, Line: deref(n).Line}

	f, has := m["name"]
	if !has {
		p.errorf(n, "%s without name (expected name: and address:)", what)
		return DeviceSpec{}, false
	}
	if d.Name, ok = p.str(f.val, "name", "a device name"); !ok {
		return DeviceSpec{}, false
	}
	if err := validDeviceName(d.Name); err != nil {
		p.errorf(f.val, "name: %v", err)
		return DeviceSpec{}, false
	}
	what = fmt.Sprintf("%s %q", role, d.Name)
	if line, dup := p.seen[d.Name]; dup {
		p.errorf(f.val, "duplicate device name %q (first defined at line %d)", d.Name, line)
		return DeviceSpec{}, false
	}
	p.seen[d.Name] = f.val.Line

	if f, has := m["address"]; !has {
		p.errorf(n, "%s has no address (expected address: an IP address or DNS name)", what)
	} else if addr, ok := p.address(f); ok {
		d.Address = addr
	}

	p.platform(&d, m, n, what)

	if f, has := m["interfaces"]; has {
		d.Interfaces = p.interfaces(f.val)
	}
	if f, has := m["gid_index"]; has {
		if v, ok := p.integer(f.val, "gid_index", 0, 255, "a GID table index 0..255"); ok {
			d.GIDIndex = &v
		}
	}

	c := base.over(p.conn(m))
	if c.User == nil && p.missing["user"] != nil {
		p.errorOnce("user", n, p.missing["user"])
	}
	if c.KnownHosts == nil && p.missing["known_hosts"] != nil {
		p.errorOnce("known_hosts", n, p.missing["known_hosts"])
	}
	d.Conn = c.connection(p.env)
	return d, true
}

// platform sets d.Platform and checks it exists and is for d's role.
func (p *parser) platform(d *DeviceSpec, m map[string]field, n *yaml.Node, what string) {
	f, has := m["platform"]
	at := n
	switch {
	case has:
		v, ok := p.str(f.val, "platform", "a platform name")
		if !ok {
			return
		}
		d.Platform, at = v, f.val
	case d.Role == topology.RoleHost:
		d.Platform = defaultHostPlatform
	default:
		p.errorf(n, "%s has no platform (expected platform: e.g. sonic, cumulus, eos or nxos)", what)
		return
	}
	if p.platforms == nil {
		return
	}
	role, ok := p.platforms.Role(d.Platform)
	switch {
	case !ok:
		p.errorf(at, "%s: unknown platform %q", what, d.Platform)
	case role != d.Role:
		p.errorf(at, "%s: platform %q is a %s platform (expected a %s platform; move the device under %s:)", what, d.Platform, role, d.Role, sectionOf(role))
	}
}

func (p *parser) interfaces(n *yaml.Node) []string {
	items, ok := p.list(n, "interfaces", "a list of netdev names, e.g. [ens1f0np0]")
	if !ok {
		return nil
	}
	if len(items) == 0 {
		p.errorf(n, "interfaces: empty list (omit interfaces: to audit every RDMA netdev)")
		return nil
	}
	var out []string
	for _, it := range items {
		v, ok := p.str(it, "interfaces", "a netdev name")
		if !ok {
			continue
		}
		if err := topology.ValidName(v); err != nil {
			p.errorf(it, "interfaces: %v", err)
			continue
		}
		if slices.Contains(out, v) {
			p.errorf(it, "interfaces: %q listed twice", v)
			continue
		}
		out = append(out, v)
	}
	return out
}

// validDeviceName is ValidName without ':', which separates device from interface in
// links and paths.
func validDeviceName(name string) error {
	if err := topology.ValidName(name); err != nil {
		return err
	}
	if strings.Contains(name, ":") {
		return fmt.Errorf("device name %q contains ':' (expected no ':'; links and paths write device:interface)", name)
	}
	return nil
}

var dnsName = regexp.MustCompile(`^(?i)[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$`)

// address reads an address: value, which must be an IP address or a DNS name.
func (p *parser) address(f field) (string, bool) {
	addr, ok := p.str(f.val, "address", "an IP address or DNS name")
	if !ok {
		return "", false
	}
	if err := validAddress(addr); err != nil {
		p.errorf(f.val, "address: %v", err)
		return "", false
	}
	return addr, true
}

// validAddress accepts an IP address (IPv6 with a zone too) or a DNS name.
func validAddress(a string) error {
	if _, err := netip.ParseAddr(a); err == nil {
		return nil
	}
	if len(a) <= 253 && dnsName.MatchString(a) {
		// A top-level label is never all digits (RFC 3696 2): 300.1.1.1 or 10.1.1 is a
		// mistyped IPv4 address, which would otherwise go to the resolver. (A lone number
		// stays accepted: Ansible inventories name hosts so.)
		name := strings.TrimSuffix(a, ".")
		dot := strings.LastIndexByte(name, '.')
		if dot < 0 || strings.Trim(name[dot+1:], "0123456789") != "" {
			return nil
		}
		return fmt.Errorf("%q is not an IPv4 address (four numbers 0..255) nor a DNS name (its last label is all digits)", a)
	}
	if host, port, err := net.SplitHostPort(a); err == nil && validAddress(host) == nil {
		return fmt.Errorf("%q includes a port (expected the address alone; set port: %s)", a, port)
	}
	return fmt.Errorf("%q is not an IP address or DNS name", a)
}
