package linux

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/topology"
)

// ParseSysfsGIDs and the GID excerpt's helpers as they were before the parse cut each
// port's lines in its own pass: the oracle (gidExcerpt of the whole dump, in
// excerpts_test.go, is the excerpts' reference).

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

// gidLineKept is a GID dump line of the port at prefix whose index is one of indexes.
func gidLineKept(l, prefix string, indexes map[int]bool) bool {
	if !strings.HasPrefix(l, prefix) { // the other port's lines, cheaply
		return false
	}
	path, _, _ := strings.Cut(l, ":")
	if !strings.HasPrefix(path, prefix) {
		return false
	}
	idx, err := strconv.Atoi(path[strings.LastIndexByte(path, '/')+1:])
	return err == nil && indexes[idx]
}

// ParseSysfsGIDs reads `grep -s -H` over gids/N, gid_attrs/types/N and gid_attrs/ndevs/N
// (CmdGIDs, or `grep -s -H .`, which also prints the empty slots) and joins them per index.
// Zero GIDs (empty slots) are dropped; an entry whose type or ndev file was unreadable keeps
// that field empty. Entries are sorted by index.
func parseSysfsGIDsRef(text string) (map[DevPort][]topology.GID, error) {
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
			gids[k] = &topology.GID{Index: idx, GID: val, IP: gidIPRef(ip)}
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
func gidIPRef(ip net.IP) string {
	if v4 := ip.To4(); v4 != nil {
		return v4.String()
	}
	return ip.String()
}

// checkGIDs compares parseSysfsGIDs with the oracle, and each port's excerpt (every port
// named, ports 0..2 of every device too) with gidExcerpt of the whole dump.
func checkGIDs(t *testing.T, text string) {
	t.Helper()
	got, lines, err := parseSysfsGIDs(text, true)
	want, wantErr := parseSysfsGIDsRef(text)
	if fmt.Sprint(err) != fmt.Sprint(wantErr) || !cmp.Equal(got, want) {
		t.Fatalf("parseSysfsGIDs(%q) = %v, %v; was %v, %v", text, got, err, want, wantErr)
	}
	if pub, pubErr := ParseSysfsGIDs(text); fmt.Sprint(pubErr) != fmt.Sprint(wantErr) || !cmp.Equal(pub, want) {
		t.Fatalf("ParseSysfsGIDs(%q) = %v, %v; was %v, %v", text, pub, pubErr, want, wantErr)
	}
	if err != nil {
		return
	}
	d := &discovery{gidTable: got, gidLines: lines}
	dps := []DevPort{}
	for dp := range got {
		dps = append(dps, dp)
		for p := range 3 {
			dps = append(dps, DevPort{Dev: dp.Dev, Port: p})
		}
	}
	for _, l := range lines {
		dps = append(dps, l.dp)
	}
	for _, dp := range dps {
		idx := map[int]bool{}
		for _, g := range got[dp] {
			idx[g.Index] = true
		}
		if g, w := d.gidExcerpt(dp, got[dp]), gidExcerpt(text, dp, idx); g != w {
			t.Fatalf("%q: GID excerpt of %v\n got %q\nwant %q", text, dp, g, w)
		}
	}
}

func gidSeeds(tb testing.TB) []string {
	seeds := []string{"", "\n \n",
		"/sys/class/infiniband/m/ports/01/gids/1:fe80::1\n/sys/class/infiniband/m/ports/1/gids/1:fe80::2\n/sys/class/infiniband/m/ports/1/gid_attrs/types/1:RoCE v2\n",
		"/sys/class/infiniband/m/ports/1/gids/3:::ffff:0.0.0.0\n/sys/class/infiniband/m/ports/1/gids/3:::\n/sys/class/infiniband/m/ports/1/gids/2:fe80::1%eth0\n",
		"/sys/class/infiniband/m/ports/1/gids/10:::ffff:10.0.0.1\n/sys/class/infiniband/m/ports/1/gids/2:2001:db8::1\n/sys/class/infiniband/m/ports/1/gids/10:fe80::9 \r\n" +
			"/sys/class/infiniband/m/ports/1/gid_attrs/ndevs/2:eth0\n/sys/class/infiniband/n/ports/2/gids/2:fe80::2\n/sys/class/infiniband/m/ports/1/gids/99999999999999999999:fe80::1\n",
	}
	files, err := filepath.Glob(filepath.Join(fixtureRoot, "*", "gids"))
	if err != nil || len(files) == 0 {
		tb.Fatal("no gids fixture")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		seeds = append(seeds, string(b))
	}
	return append(seeds, loadTranscript(tb)[CmdGIDs].Stdout)
}

// go test runs the seeds (the recorded outputs) as a test; to fuzz:
// go test -run XXX -fuzz FuzzGIDs -fuzztime 60s -fuzzminimizetime 2s ./collectors/linux
func FuzzGIDs(f *testing.F) {
	minis := textMinis(2, append([]string{loadTranscript(f)[CmdGIDs].Stdout}, fixtureFiles(f, "gids")...)...)
	addSeeds(f, append(minis, gidSeeds(f)...)...)
	f.Fuzz(checkGIDs)
}
