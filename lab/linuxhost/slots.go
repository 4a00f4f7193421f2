package linuxhost

import (
	"slices"
	"strconv"
	"strings"
	"sync"
)

// slotDir is a directory of files whose content is rendered when a file is read: numbered
// 0..n-1 (a port's GID table: gids/N, gid_attrs/types/N, gid_attrs/ndevs/N, 255 slots each),
// or named (hw_counters). Building 765 map entries a port for every command was the lab's
// largest cost in a host's profile (BenchmarkCollectGPUHost), and most commands read none of
// them; entering hw_counters' 32 files one by one was most of its grep (BenchmarkHwCounters).
type slotDir struct {
	n     int
	named []string // the files' names, file(i) rendering named[i]; nil for numbered slots
	file  func(i int) vfile
	// order is the slot at each position of the directory's entries (nil: the position);
	// sorted tells that the entries are in lexical order, as a glob lists them.
	order  []int
	sorted bool
}

// addSlots enters dir as a slot directory of n numbered files.
func (fs *vfs) addSlots(dir string, n int, file func(i int) vfile) {
	if n <= 0 {
		return
	}
	sn := slotNamesOrder(n)
	fs.addSlotDir(dir, &slotDir{n: n, file: file, order: sn.order, sorted: true}, sn.names)
}

// addNamedSlots enters dir as a slot directory of the named files.
func (fs *vfs) addNamedSlots(dir string, names []string, file func(i int) vfile) {
	fs.addSlotDir(dir, &slotDir{n: len(names), named: names, file: file, sorted: slices.IsSorted(names)}, slices.Clip(names))
}

// at is the slot at position pos of the directory's entries.
func (s *slotDir) at(pos int) int {
	if s.order == nil {
		return pos
	}
	return s.order[pos]
}

func (fs *vfs) addSlotDir(dir string, s *slotDir, entries []string) {
	if s.n <= 0 || !fs.wants(dir+"/") {
		return
	}
	if names, ok := fs.dirs[dir]; !ok {
		fs.link(dir)
	} else if len(names) > 0 {
		fs.mixed = true // files put there before are read by path, as they shadow slots
	}
	fs.dirs[dir] = entries
	fs.slots[dir] = s
}

// lookup is the slot a name is.
func (s *slotDir) lookup(name string) (int, bool) {
	if s.named == nil {
		return slotIndex(name, s.n)
	}
	for i, n := range s.named {
		if n == name {
			return i, true
		}
	}
	return 0, false
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
	i, ok := s.lookup(p[cut+1:])
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

var slotNameCache sync.Map // n -> slotNaming

// slotNaming is a numbered slot directory's entries: the names in glob order and, at each
// position, the slot the name is.
type slotNaming struct {
	names []string
	order []int
}

// slotNamesOrder is the naming of n slots, "0".."n-1" in lexical order (the order a glob
// lists them), shared and clipped so that nothing appends to it in place.
func slotNamesOrder(n int) slotNaming {
	if v, ok := slotNameCache.Load(n); ok {
		return v.(slotNaming)
	}
	names := make([]string, n)
	for i := range names {
		names[i] = strconv.Itoa(i)
	}
	slices.Sort(names)
	order := make([]int, n)
	for pos, name := range names {
		order[pos], _ = strconv.Atoi(name)
	}
	sn := slotNaming{names: slices.Clip(names), order: order}
	slotNameCache.Store(n, sn)
	return sn
}
