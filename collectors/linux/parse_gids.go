package linux

import (
	"fmt"
	"net"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/topology"
)

// gidPath matches the file part of a `grep -H` line over the GID sysfs files.
var gidPath = regexp.MustCompile(`^/sys/class/infiniband/([^/]+)/ports/(\d+)/(gids|gid_attrs/types|gid_attrs/ndevs)/(\d+)$`)

// ParseSysfsGIDs reads `grep -s -H .` over gids/N, gid_attrs/types/N and gid_attrs/ndevs/N
// and joins them per index. Zero GIDs (empty slots) are dropped; an entry whose type or ndev
// file was unreadable keeps that field empty. Entries are sorted by index.
func ParseSysfsGIDs(text string) (map[DevPort][]topology.GID, error) {
	type key struct {
		dp  DevPort
		idx int
	}
	gids := map[key]*topology.GID{}
	types := map[key]string{}
	ndevs := map[key]string{}
	for n, line := range strings.Split(text, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		// Paths hold no ':' (device and netdev names cannot), GID values do: split on the first.
		path, val, ok := strings.Cut(line, ":")
		m := gidPath.FindStringSubmatch(path)
		if !ok || m == nil {
			return nil, fmt.Errorf("GID sysfs line %d %s: expected /sys/class/infiniband/DEV/ports/N/{gids,gid_attrs/types,gid_attrs/ndevs}/IDX:VALUE", n+1, collectors.QuoteLine(line))
		}
		port, err1 := strconv.Atoi(m[2])
		idx, err2 := strconv.Atoi(m[4])
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("GID sysfs line %d: port or index out of range", n+1)
		}
		k := key{DevPort{Dev: m[1], Port: port}, idx}
		val = strings.TrimSpace(val)
		switch m[3] {
		case "gids":
			ip := net.ParseIP(val)
			if ip == nil || !strings.Contains(val, ":") {
				return nil, fmt.Errorf("GID sysfs line %d: %q is not a GID (expected 8 groups of 4 hex digits)", n+1, val)
			}
			if ip.IsUnspecified() {
				continue // empty slot: the kernel reads it back as the zero GID
			}
			gids[k] = &topology.GID{Index: idx, GID: val, IP: gidIP(ip)}
		case "gid_attrs/types":
			if val != topology.GIDTypeV1 && val != topology.GIDTypeV2 {
				return nil, fmt.Errorf("GID sysfs line %d: type %q (expected %q or %q)", n+1, val, topology.GIDTypeV1, topology.GIDTypeV2)
			}
			types[k] = val
		case "gid_attrs/ndevs":
			ndevs[k] = val
		}
	}
	out := map[DevPort][]topology.GID{}
	for k, g := range gids {
		g.Type, g.Netdev = types[k], ndevs[k]
		out[k.dp] = append(out[k.dp], *g)
	}
	for _, list := range out {
		sort.Slice(list, func(i, j int) bool { return list[i].Index < list[j].Index })
	}
	return out, nil
}

// gidIP is the address a GID encodes: IPv4-mapped as dotted IPv4, else compressed IPv6.
func gidIP(ip net.IP) string {
	if v4 := ip.To4(); v4 != nil {
		return v4.String()
	}
	return ip.String()
}
