package linux

import (
	"fmt"
	"net"
	"sort"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/topology"
)

// gidFile is the file part of a `grep -H` line over the GID sysfs files:
// /sys/class/infiniband/DEV/ports/PORT/{gids,gid_attrs/types,gid_attrs/ndevs}/IDX.
type gidFile struct {
	dev, port, kind, idx string
}

// splitGIDPath reads a gidFile without a regular expression: a host answers 3 lines per GID
// slot (256 slots a port), and matching each with one was the larger part of its parse.
func splitGIDPath(p string) (gidFile, bool) {
	rest, ok := strings.CutPrefix(p, "/sys/class/infiniband/")
	if !ok {
		return gidFile{}, false
	}
	var f gidFile
	if f.dev, rest, ok = strings.Cut(rest, "/ports/"); !ok || f.dev == "" || strings.Contains(f.dev, "/") {
		return gidFile{}, false
	}
	if f.port, rest, ok = strings.Cut(rest, "/"); !ok || !allDigits(f.port) {
		return gidFile{}, false
	}
	i := strings.LastIndexByte(rest, '/')
	if i < 0 {
		return gidFile{}, false
	}
	f.kind, f.idx = rest[:i], rest[i+1:]
	switch f.kind {
	case "gids", "gid_attrs/types", "gid_attrs/ndevs":
		return f, allDigits(f.idx)
	}
	return gidFile{}, false
}

// allDigits reports a non-empty run of ASCII digits.
func allDigits(s string) bool {
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// ParseSysfsGIDs reads `grep -s -H` over gids/N, gid_attrs/types/N and gid_attrs/ndevs/N
// (CmdGIDs, or `grep -s -H .`, which also prints the empty slots) and joins them per index.
// Zero GIDs (empty slots) are dropped; an entry whose type or ndev file was unreadable keeps
// that field empty. Entries are sorted by index.
func ParseSysfsGIDs(text string) (map[DevPort][]topology.GID, error) {
	const zeroGID = "0000:0000:0000:0000:0000:0000:0000:0000"
	type key struct {
		dp  DevPort
		idx int
	}
	gids := map[key]*topology.GID{}
	types := map[key]string{}
	ndevs := map[key]string{}
	// A port's slots come in runs of one directory: the last one's split (all but the index)
	// and port number are kept, and a path in the same directory only reads its index.
	var dir string
	var last gidFile
	var port int
	var err1 error
	n := -1
	for line := range strings.SplitSeq(text, "\n") {
		n++
		if strings.TrimSpace(line) == "" {
			continue
		}
		// Paths hold no ':' (device and netdev names cannot), GID values do: split on the first.
		path, val, ok := strings.Cut(line, ":")
		var m gidFile
		okPath := false
		if d := path[:strings.LastIndexByte(path, '/')+1]; d != "" && d == dir {
			m, okPath = last, allDigits(path[len(d):])
			m.idx = path[len(d):]
		} else if m, okPath = splitGIDPath(path); okPath {
			dir, last = d, m
			port, err1 = strconv.Atoi(m.port)
		}
		if !ok || !okPath {
			return nil, fmt.Errorf("GID sysfs line %d %s: expected /sys/class/infiniband/DEV/ports/N/{gids,gid_attrs/types,gid_attrs/ndevs}/IDX:VALUE", n+1, collectors.QuoteLine(line))
		}
		idx, err2 := strconv.Atoi(m.idx)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("GID sysfs line %d: port or index out of range", n+1)
		}
		k := key{DevPort{Dev: m.dev, Port: port}, idx}
		val = strings.TrimSpace(val)
		switch m.kind {
		case "gids":
			if val == zeroGID {
				continue // most of a port's 256 slots: no address to parse
			}
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
