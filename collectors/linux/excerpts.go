package linux

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Each port's excerpts used to scan the host-wide outputs whole (ip's JSON parsed again, the
// GID dump and ibv_devinfo read line by line): quadratic in ports, 7% of an 8-rail 1k
// audit's CPU. The outputs are now cut once per host (ibv_devinfo's by its parse), and each
// excerpt reads its own part; the whole-output excerpt functions, kept in the tests, are
// their reference.

// ipExcerpt is the compacted JSON object of netdev name in ip's output (the first of that
// name), limited to the fields used.
func (d *discovery) ipExcerpt(name string) string {
	if d.ipByName == nil {
		d.ipByName = map[string]*ipFields{}
		objs := ipFieldObjects(d.ip.out.Stdout)
		for i := range objs {
			var n string
			if v, ok := objs[i].get("ifname"); ok && json.Unmarshal(v, &n) == nil {
				if _, dup := d.ipByName[n]; !dup { // the first of a name, as ip lists it
					d.ipByName[n] = &objs[i]
				}
			}
		}
	}
	o, ok := d.ipByName[name]
	if !ok {
		return ""
	}
	return o.excerpt()
}

// devinfoExcerpt is the hca_id line, the port line and the deciding lines of dp's port
// block, from the lines parseIbvDevinfo kept for dp.Dev (as devinfoExcerpt of the whole
// output keeps them).
func (d *discovery) devinfoExcerpt(dp DevPort) string {
	port := strconv.Itoa(dp.Port)
	var buf [16]string
	kept := buf[:0]
	for _, l := range d.devLines[dp.Dev] {
		if l.hca || l.port == port {
			kept = append(kept, l.line)
		}
	}
	return strings.Join(kept, "\n")
}

// gidExcerpt is gidExcerpt of the GID dump for dp, read in dp's lines only (kept as
// substrings of the dump: copying them cost as much as the scan it saved). Only the lines of
// the indexes the GID table holds for their port are kept (a dump of every slot, empty ones
// too, as `grep .` prints it: keeping them all was 11% of an 8-rail host's allocation);
// indexes, the caller's, are those of d.gidTable[dp], so no line it keeps is left out.
func (d *discovery) gidExcerpt(dp DevPort, indexes map[int]bool) string {
	if d.gidByPort == nil {
		d.gidByPort = map[string][]string{}
		held := make(map[string]map[int]bool, len(d.gidTable))
		for p, gids := range d.gidTable {
			set := make(map[int]bool, len(gids))
			for _, g := range gids {
				set[g.Index] = true
			}
			held[gidPortPrefix(p)] = set
		}
		// A port's lines come in runs: the last port's set saves hashing its prefix again.
		var lastP string
		var lastSet map[int]bool
		for l := range strings.SplitSeq(d.gids.out.Stdout, "\n") {
			p := lastP
			if lastP == "" || !strings.HasPrefix(l, lastP) { // a line under lastP is lastP's
				var ok bool
				if p, ok = gidLinePort(l); !ok {
					continue
				}
			}
			if p != lastP || lastSet == nil {
				lastP, lastSet = p, held[p]
			}
			if lastSet != nil && gidLineKept(l, p, lastSet) {
				d.gidByPort[p] = append(d.gidByPort[p], l)
			}
		}
	}
	prefix := gidPortPrefix(dp)
	var out []string
	for _, l := range d.gidByPort[prefix] {
		if gidLineKept(l, prefix, indexes) && strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

const sysIB = "/sys/class/infiniband/"

func gidPortPrefix(dp DevPort) string {
	return sysIB + dp.Dev + "/ports/" + strconv.Itoa(dp.Port) + "/"
}

// gidLinePort is the /sys/class/infiniband/DEV/ports/N/ a grep line starts with.
func gidLinePort(l string) (string, bool) {
	rest, ok := strings.CutPrefix(l, sysIB)
	if !ok {
		return "", false
	}
	dev := strings.IndexByte(rest, '/')
	if dev < 0 || !strings.HasPrefix(rest[dev+1:], "ports/") {
		return "", false
	}
	n := strings.IndexByte(rest[dev+1+len("ports/"):], '/')
	if n < 0 {
		return "", false
	}
	return l[:len(sysIB)+dev+1+len("ports/")+n+1], true
}
