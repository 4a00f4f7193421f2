package linux

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Each port's excerpts used to scan the host-wide outputs whole (ip's JSON parsed again, the
// GID dump and ibv_devinfo read line by line): quadratic in ports, 7% of an 8-rail 1k
// audit's CPU. The outputs are now cut once per host, and each excerpt reads its own part;
// the excerpt functions are unchanged, so the excerpts are too.

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

// devinfoExcerpt is devinfoExcerpt of ibv_devinfo's output for dp, read in dp.Dev's blocks
// (from its hca_id line to the next hca_id line) only.
func (d *discovery) devinfoExcerpt(dp DevPort) string {
	if d.devByName == nil {
		// Each block is kept as its substring of the output: copying it line by line into a
		// builder was 30% of an 8-rail host's allocation. A block that ends the output may
		// lack the final newline the copy had; devinfoExcerpt skips that empty line anyway.
		d.devByName = map[string]string{}
		text := d.devinfo.out.Stdout
		cur, start := "", 0
		flush := func(end int) {
			if cur != "" && end > start {
				d.devByName[cur] += text[start:end]
			}
		}
		for off := 0; off <= len(text); {
			l, next := text[off:], len(text)+1
			if i := strings.IndexByte(l, '\n'); i >= 0 {
				l, next = l[:i], off+i+1
			}
			if key, val, ok := strings.Cut(strings.TrimSpace(l), ":"); ok && key == "hca_id" {
				flush(off)
				cur, start = strings.TrimSpace(val), off
			}
			off = next
		}
		flush(len(text))
	}
	return devinfoExcerpt(d.devByName[dp.Dev], dp)
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
