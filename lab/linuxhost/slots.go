package linuxhost

import (
	"slices"
	"strconv"
	"strings"
	"sync"
)

// slotDir is a directory of numbered files 0..n-1 (a port's GID table: gids/N,
// gid_attrs/types/N, gid_attrs/ndevs/N, 255 slots each) whose content is rendered when a
// file is read: building 765 map entries a port for every command was the lab's largest
// cost in a host's profile (BenchmarkCollectGPUHost), and most commands read none of them.
type slotDir struct {
	n    int
	file func(i int) vfile
}

// addSlots enters dir as a slot directory of n files.
func (fs *vfs) addSlots(dir string, n int, file func(i int) vfile) {
	if n <= 0 || !fs.wants(dir+"/") {
		return
	}
	if names, ok := fs.dirs[dir]; !ok {
		fs.link(dir)
	} else if len(names) > 0 {
		fs.mixed = true // files put there before are read by path, as they shadow slots
	}
	fs.dirs[dir] = slotNames(n)
	fs.slots[dir] = &slotDir{n: n, file: file}
}

// slot is the file at p when p is a slot of a slot directory.
func (fs *vfs) slot(p string) (vfile, bool) {
	cut := strings.LastIndexByte(p, '/') // p is clean: the glob made it, or a tool's operand
	if cut <= 0 {
		return vfile{}, false
	}
	s, ok := fs.slots[p[:cut]]
	if !ok {
		return vfile{}, false
	}
	i, ok := slotIndex(p[cut+1:], s.n)
	if !ok {
		return vfile{}, false
	}
	return s.file(i), true
}

// slotIndex is the slot a name is, when it names one of n: the number as the kernel spells it
// ("01", "+1" and "-0" are no slot).
func slotIndex(name string, n int) (int, bool) {
	if name == "" || len(name) > 9 || name[0] == '0' && name != "0" {
		return 0, false
	}
	i := 0
	for _, c := range []byte(name) {
		if c < '0' || c > '9' {
			return 0, false
		}
		i = i*10 + int(c-'0')
	}
	return i, i < n
}

var slotNameCache sync.Map // n -> []string

// slotNames are "0".."n-1" in lexical order (the order a glob lists them), shared and
// clipped so that nothing appends to them in place.
func slotNames(n int) []string {
	if v, ok := slotNameCache.Load(n); ok {
		return v.([]string)
	}
	names := make([]string, n)
	for i := range names {
		names[i] = strconv.Itoa(i)
	}
	slices.Sort(names)
	names = slices.Clip(names)
	slotNameCache.Store(n, names)
	return names
}
