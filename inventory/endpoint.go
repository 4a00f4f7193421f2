package inventory

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"

	"github.com/roceaudit/roceaudit/topology"
)

// CheckEndpoint says whether s can name a path endpoint of this inventory: an IP address
// (resolved once hosts are collected), a host under hosts:, or host:netdev of one, so that a
// typo is refused before any device is contacted.
func (inv *Inventory) CheckEndpoint(s string) error {
	return checkEndpoint(s, inv.Device)
}

// CheckEndpointPair checks both ends and that they are two different endpoints.
func (inv *Inventory) CheckEndpointPair(from, to string) error {
	for _, e := range []string{from, to} {
		if err := inv.CheckEndpoint(e); err != nil {
			return err
		}
	}
	if from == to {
		return fmt.Errorf("both ends are %s (expected two different endpoints)", from)
	}
	return nil
}

func checkEndpoint(s string, device func(string) (DeviceSpec, bool)) error {
	// An IP is checked first: an IPv6 address has colons but no host part.
	if _, err := netip.ParseAddr(s); err == nil {
		return nil
	}
	host, netdev, hasNetdev := strings.Cut(s, ":")
	d, ok := device(host)
	switch {
	case !ok:
		return fmt.Errorf("unknown host %q (expected a host under hosts:, host:netdev or an IP address)", host)
	case d.Role != topology.RoleHost:
		return fmt.Errorf("%q is a %s (path endpoints are hosts)", host, d.Role)
	case !hasNetdev:
		return nil
	}
	if err := topology.ValidName(netdev); err != nil {
		return err
	}
	if len(d.Interfaces) > 0 && !slices.Contains(d.Interfaces, netdev) {
		return fmt.Errorf("host %q does not audit %q (its interfaces: %s)", host, netdev, strings.Join(d.Interfaces, ", "))
	}
	return nil
}
