package linux

import (
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/topology"
)

// Each port's excerpts used to scan the host-wide outputs whole (ip's JSON parsed again, the
// GID dump and ibv_devinfo read line by line): quadratic in ports, 7% of an 8-rail 1k
// audit's CPU. The outputs are now cut once per host (ibv_devinfo's and the GID dump's by their parses), and each
// excerpt reads its own part; the whole-output excerpt functions, kept in the tests, are
// their reference.

// ipExcerpt is the compacted JSON object of netdev name in ip's output (the first of that
// name), limited to the fields used.
func (d *discovery) ipExcerpt(name string) string {
	if d.ipByName == nil {
		d.ipByName = map[string]*ipFields{}
		objs := d.ipFields
		if objs == nil {
			objs = ipFieldObjects(d.ip.out.Stdout)
		}
		for i := range objs {
			if n, ok := objs[i].ifname(); ok {
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
// block, from the lines parseIbvDevinfo kept (as devinfoExcerpt of the whole output keeps
// them).
func (d *discovery) devinfoExcerpt(dp DevPort) string {
	port := strconv.Itoa(dp.Port)
	var buf [16]string
	kept := buf[:0]
	for _, l := range d.devLines {
		if l.dev == dp.Dev && (l.hca || l.port == port) {
			kept = append(kept, l.line)
		}
	}
	return strings.Join(kept, "\n")
}

// gidExcerpt is the GID dump's lines of dp whose index is one of gids' (the GID table's
// entries of dp), as gidExcerpt of the whole dump keeps them: the lines parseSysfsGIDs kept
// for dp (a dump of every slot, empty ones too, as `grep .` prints it, is mostly lines of
// indexes the table does not hold). Kept as substrings of the dump: copying them cost as
// much as the scan they saved.
func (d *discovery) gidExcerpt(dp DevPort, gids []topology.GID) string {
	var buf [32]string
	kept := buf[:0]
	for _, l := range d.gidLines {
		if l.dp != dp {
			continue
		}
		for i := range gids {
			if gids[i].Index == l.idx {
				kept = append(kept, l.line)
				break
			}
		}
	}
	return strings.Join(kept, "\n")
}
