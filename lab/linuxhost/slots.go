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
	if _, ok := fs.dirs[dir]; !ok {
		fs.link(dir)
	}
	fs.dirs[dir] = slotNames(n)
	fs.slots[dir] = slotDir{n: n, file: file}
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
	base := p[cut+1:]
	i, err := strconv.Atoi(base)
	if err != nil || i < 0 || i >= s.n || strconv.Itoa(i) != base { // "01" is no slot
		return vfile{}, false
	}
	return s.file(i), true
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
