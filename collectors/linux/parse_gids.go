package linux

import (
	"cmp"
	"fmt"
	"net/netip"
	"slices"
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
	t, _, err := parseSysfsGIDs(text, false)
	return t, err
}

// gidLine is a line of the GID dump under a port's directory, written as strconv.Itoa writes
// the port (as the excerpt's reference, gidPortPrefix in the tests, does),
// with its index: what the port's GID excerpt keeps when the index is in its table.
type gidLine struct {
	dp   DevPort
	line string
	idx  int
}

// gidSlot is one index of one port as its three files read.
type gidSlot struct {
	port               int // in the ports seen
	idx                int
	gid, ip, typ, ndev string
	hasGID             bool
}

// parseSysfsGIDs is ParseSysfsGIDs and, when cut is set, the lines of each port (see
// gidLine) for the excerpts, from the same pass. The slots are joined by one map keyed by
// the port's number among those seen (a port's lines come in runs of a directory) and the
// index: three maps keyed by device name, a GID allocated per slot, net.ParseIP and
// sort.Slice made it 13% of an 8-rail host's collection with the excerpts' second pass.
func parseSysfsGIDs(text string, cut bool) (map[DevPort][]topology.GID, []gidLine, error) {
	const zeroGID = "0000:0000:0000:0000:0000:0000:0000:0000"
	type key struct{ port, idx int }
	slots := make([]gidSlot, 0, strings.Count(text, "\n")/3+1)
	byKey := make(map[key]int, cap(slots))
	var ports []DevPort // by number
	var lines []gidLine // one slice for all ports: a slice a port grew through many allocations
	if cut {
		lines = make([]gidLine, 0, strings.Count(text, "\n")+1)
	}
	// A port's slots come in runs of one directory: the last one's split (all but the index),
	// port and whether the port is written as Itoa writes it are kept, and a path
	// in the same directory only reads its index.
	var dir string
	var last gidFile
	var port, portNo int
	var canonical bool
	var err1 error
	n := 0
	for rest, more := text, true; more; {
		var line string
		line, rest, more = nextLine(rest)
		n++
		if blank(line) {
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
			if err1 == nil {
				portNo, canonical = portNumber(&ports, DevPort{Dev: m.dev, Port: port}), m.port == strconv.Itoa(port)
			}
		}
		if !ok || !okPath {
			return nil, nil, fmt.Errorf("GID sysfs line %d %s: expected /sys/class/infiniband/DEV/ports/N/{gids,gid_attrs/types,gid_attrs/ndevs}/IDX:VALUE", n, collectors.QuoteLine(line))
		}
		idx, err2 := strconv.Atoi(m.idx)
		if err1 != nil || err2 != nil {
			return nil, nil, fmt.Errorf("GID sysfs line %d: port or index out of range", n)
		}
		if cut && canonical {
			lines = append(lines, gidLine{ports[portNo], line, idx})
		}
		val = strings.TrimSpace(val)
		var g, ip string
		switch m.kind {
		case "gids":
			if val == zeroGID {
				continue // most of a port's 256 slots: no address to parse
			}
			a, err := netip.ParseAddr(val) // net.ParseIP is this without a zone
			if err != nil || a.Zone() != "" || !strings.Contains(val, ":") {
				return nil, nil, fmt.Errorf("GID sysfs line %d: %q is not a GID (expected 8 groups of 4 hex digits)", n, val)
			}
			if a16 := a.As16(); a16 == [16]byte{} || a16 == v4Zero {
				continue // empty slot: the kernel reads it back as the zero GID (net.IP's IsUnspecified)
			}
			g, ip = val, a.Unmap().String() // net.IP's String of the address To4 gives, or else of it
		case "gid_attrs/types":
			if val != topology.GIDTypeV1 && val != topology.GIDTypeV2 {
				return nil, nil, fmt.Errorf("GID sysfs line %d: type %q (expected %q or %q)", n, val, topology.GIDTypeV1, topology.GIDTypeV2)
			}
		}
		k := key{portNo, idx}
		i, seen := byKey[k]
		if !seen {
			i = len(slots)
			byKey[k] = i
			slots = append(slots, gidSlot{port: portNo, idx: idx})
		}
		switch sl := &slots[i]; m.kind {
		case "gids":
			sl.gid, sl.ip, sl.hasGID = g, ip, true
		case "gid_attrs/types":
			sl.typ = val
		case "gid_attrs/ndevs":
			sl.ndev = val
		}
	}
	return gidTable(ports, slots), lines, nil
}

// v4Zero is 0.0.0.0 as a 16-byte address, which net.IP's IsUnspecified also takes for empty.
var v4Zero = netip.AddrFrom4([4]byte{}).As16()

// portNumber is dp's index in *ports, appended when new.
func portNumber(ports *[]DevPort, dp DevPort) int {
	for i, p := range *ports {
		if p == dp {
			return i
		}
	}
	*ports = append(*ports, dp)
	return len(*ports) - 1
}

// gidTable is the slots with a GID by port, each port's sorted by index, in slices of
// their exact size.
func gidTable(ports []DevPort, slots []gidSlot) map[DevPort][]topology.GID {
	count := make([]int, len(ports))
	for i := range slots {
		if slots[i].hasGID {
			count[slots[i].port]++
		}
	}
	out := make(map[DevPort][]topology.GID, len(ports))
	lists := make([][]topology.GID, len(ports))
	for p, c := range count {
		if c > 0 {
			lists[p] = make([]topology.GID, 0, c)
		}
	}
	for _, sl := range slots {
		if sl.hasGID {
			lists[sl.port] = append(lists[sl.port], topology.GID{Index: sl.idx, GID: sl.gid, IP: sl.ip, Type: sl.typ, Netdev: sl.ndev})
		}
	}
	for p, list := range lists {
		if list != nil {
			slices.SortFunc(list, func(a, b topology.GID) int { return cmp.Compare(a.Index, b.Index) })
			out[ports[p]] = list
		}
	}
	return out
}
