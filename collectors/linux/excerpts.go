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

// ipExcerpt is ipAddrExcerpt of ip's output for name.
func (d *discovery) ipExcerpt(name string) string {
	if d.ipByName == nil {
		d.ipByName = map[string]map[string]json.RawMessage{}
		for _, o := range ipObjects(d.ip.out.Stdout) {
			var n string
			if json.Unmarshal(o["ifname"], &n) == nil {
				if _, dup := d.ipByName[n]; !dup { // ipAddrExcerpt takes the first
					d.ipByName[n] = o
				}
			}
		}
	}
	o, ok := d.ipByName[name]
	if !ok {
		return ""
	}
	return ipObjectExcerpt([]map[string]json.RawMessage{o}, name)
}

// devinfoExcerpt is devinfoExcerpt of ibv_devinfo's output for dp, read in dp.Dev's blocks
// (from its hca_id line to the next hca_id line) only.
func (d *discovery) devinfoExcerpt(dp DevPort) string {
	if d.devByName == nil {
		d.devByName = map[string]string{}
		var cur string
		var b strings.Builder
		flush := func() {
			if b.Len() > 0 {
				d.devByName[cur] += b.String()
				b.Reset()
			}
		}
		for more, text := true, d.devinfo.out.Stdout; more; {
			var l string
			l, text, more = strings.Cut(text, "\n")
			if key, val, ok := strings.Cut(strings.TrimSpace(l), ":"); ok && key == "hca_id" {
				flush()
				cur = strings.TrimSpace(val)
			}
			if cur != "" {
				b.WriteString(l)
				b.WriteByte('\n')
			}
		}
		flush()
	}
	return devinfoExcerpt(d.devByName[dp.Dev], dp)
}

// gidExcerpt is gidExcerpt of the GID dump for dp, read in dp's lines only (kept as
// substrings of the dump: copying them cost as much as the scan it saved).
func (d *discovery) gidExcerpt(dp DevPort, indexes map[int]bool) string {
	if d.gidByPort == nil {
		d.gidByPort = map[string][]string{}
		for more, text := true, d.gids.out.Stdout; more; {
			var l string
			l, text, more = strings.Cut(text, "\n")
			if p, ok := gidLinePort(l); ok {
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
