package linuxhost

import (
	"path"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The indexed glob names exactly what path.Match over every file and directory names (the
// semantics it replaces), on a whole host's files; the root is no directory's entry, so "/*"
// does not name "/" (as in bash, unlike path.Match).
func TestGlobMatchesPathMatchOverEveryPath(t *testing.T) {
	h := NewGPUHost("gpu01", 1)
	h.OFED = true
	fs := h.filesystem(nil)
	var all []string
	for p := range fs.files {
		all = append(all, p)
	}
	for d := range fs.dirs {
		if d != "/" {
			all = append(all, d)
		}
	}
	for d, s := range fs.slots { // rendered on read: every slot is a path all the same
		for i := range s.n {
			if s.named != nil {
				all = append(all, d+"/"+s.named[i])
			} else {
				all = append(all, d+"/"+strconv.Itoa(i))
			}
		}
	}
	for _, pattern := range []string{
		"/sys/class/infiniband/*/ports/*/gids/*",
		"/sys/class/infiniband/*/ports/*/gid_attrs/types/*",
		"/sys/class/infiniband/mlx5_0/ports/1/hw_counters/*",
		"/sys/class/net/*/ecn/roce_np/enable/*",
		"/sys/class/net/ens1f0np0/ecn/roce_?p/enable/[0-3]",
		"/sys/class/*", "/*", "/sys/class/infiniband/*/tc/*/traffic_class",
		"/sys/class/net/*/mtu", "/nope/*", "/sys/class/infiniband/mlx5_0/ports/1/gids/2?",
		"/sys/class/infiniband/*/ports/1/gid_attrs/*/1[0-2]", "relative/*", "/sys/class/*/", "/sys/./class/*",
	} {
		var want []string
		for _, p := range all {
			if ok, _ := path.Match(pattern, p); ok {
				want = append(want, p)
			}
		}
		slices.Sort(want)
		got := fs.match(pattern)
		slices.Sort(got)
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s (-path.Match +indexed):\n%s", pattern, d)
		}
	}
	if n := len(fs.match("/sys/class/infiniband/*/ports/*/gids/*")); n < 256 {
		t.Errorf("only %d GID slots: the host has too few files to compare", n)
	}
}

// A slot directory's files are its slot numbers as the kernel names them: no other spelling
// of a number names one, and reading renders the slot.
func TestSlotFilesByExactName(t *testing.T) {
	fs := newVFS()
	fs.addSlots("/d", 3, func(i int) vfile { return vfile{data: strconv.Itoa(i * 10)} })
	for p, want := range map[string]bool{"/d/0": true, "/d/2": true, "/d/3": false, "/d/01": false, "/d/-1": false, "/d/+1": false, "/d": true} {
		if got := fs.exists(p); got != want {
			t.Errorf("exists(%q) = %v, want %v", p, got, want)
		}
	}
	if data, errText := fs.read("/d/2"); data != "20" || errText != "" {
		t.Errorf("read /d/2 = %q, %q", data, errText)
	}
	if got := fs.glob("/d/*"); !slices.Equal(got, []string{"/d/0", "/d/1", "/d/2"}) {
		t.Errorf("glob /d/* = %q", got)
	}
}

// A vfs scoped to a command's words answers every glob and read of those words as the whole
// filesystem does: scoping only leaves out what the words cannot reach.
func TestScopedVFSAnswersAsTheWhole(t *testing.T) {
	h := NewGPUHost("gpu01", 1)
	h.AddVLAN(Port0, 100, "10.100.0.1/24")
	tos := 106
	h.RDMA[1].Ports[0].DefaultRoCEToS = &tos
	h.Files["/etc/profile.d/a.sh"] = "export NCCL_IB_HCA=mlx5_0\n"
	whole := h.filesystem(nil)
	for _, w := range []string{
		"/sys/class/infiniband/*/ports/*/gids/*", "/sys/class/infiniband/*/ports/*/gid_attrs/types/*",
		"/sys/class/infiniband/mlx5_0/ports/1/hw_counters/*", "/sys/class/infiniband/mlx5_1/ports/1/hw_counters/rx_*",
		"/sys/class/net/*/ecn/roce_np/enable/*", "/sys/class/net/ens1f0np0/ecn/roce_?p/enable/[0-3]",
		"/sys/class/infiniband/*/tc/*/traffic_class", "/sys/kernel/config/rdma_cm/*/ports/*/*",
		"/sys/class/infiniband/mlx5_0", "/sys/class/infiniband/mlx5_0/ports/1/", "/sys/class/infiniband/mlx5_0/ports/1/gids",
		"/sys/class/infiniband/mlx5_0/ports/1/gids/", "/sys/class/infiniband/mlx5_0/ports/1/gids/254",
		"/sys/class/infiniband/mlx5_[/ports/*/state",
		"/sys/class/../class/net/eno1/mtu", "sys/class/net/eno1/mtu", "/", "/*", "/sys/*/*", "/sys/class/*/*/ports/1/*",
		"/etc/nccl.conf/x", "/sys/class/net/eno1/mtu/", "/sys/class/net/*/", "/sys/class/net//eno1/mtu",
		"/sys/class/infiniband/*/ports/*/*", "/etc/profile.d/*.sh", "/etc/*", "/nope/*",
	} {
		scoped := h.filesystem([]string{w})
		got, want := scoped.glob(w), whole.glob(w)
		if !slices.Equal(got, want) {
			t.Errorf("glob %q: scoped %q, whole %q", w, got, want)
			continue
		}
		for _, p := range got {
			gd, ge := scoped.read(p)
			wd, we := whole.read(p)
			if gd != wd || ge != we {
				t.Errorf("read %q (word %q): scoped %q %q, whole %q %q", p, w, gd, ge, wd, we)
			}
		}
	}
}

// Every hit of a glob reads as its path does, slot directories included, also where a file
// was put among a slot directory's entries (before or after it was made one).
func TestHitsReadAsTheirPaths(t *testing.T) {
	h := NewGPUHost("gpu01", 1)
	h.AddVLAN(Port0, 100, "10.100.0.1/24")
	before, after := newVFS(), newVFS()
	before.add("/d/1", "file\n")
	for _, fs := range []*vfs{before, after} {
		fs.addSlots("/d", 12, func(i int) vfile {
			if i%3 == 0 {
				return vfile{errno: "Invalid argument"}
			}
			return vfile{data: strconv.Itoa(i) + "\n"}
		})
	}
	after.add("/d/1", "file\n")
	after.add("/d/11/x", "deeper\n")
	for _, fs := range []*vfs{h.filesystem(nil), before, after, newVFS()} {
		for _, w := range []string{"/sys/class/infiniband/*/ports/*/gids/*", "/sys/class/infiniband/*/ports/*/gid_attrs/*/1*",
			"/sys/class/infiniband/mlx5_0/ports/1/gid_attrs/ndevs/3", "/sys/class/infiniband/mlx5_0/ports/1/gid_attrs/ndevs/03",
			"/sys/class/net/*/ecn/*/*", "/d/*", "/d/1", "/d/1?", "/d/*/x", "/d/[0-2]", "/nope/*"} {
			var hits []hit
			fs.expand([]string{w}, func(h hit) { hits = append(hits, h) })
			paths := fs.glob(w)
			if len(hits) != len(paths) {
				t.Fatalf("%q: %d hits, %d paths", w, len(hits), len(paths))
			}
			for i, h := range hits {
				gd, ge := fs.readHit(h)
				wd, we := fs.read(paths[i])
				if h.path() != paths[i] || gd != wd || ge != we {
					t.Errorf("%q: hit %q reads %q %q, path %q reads %q %q", w, h.path(), gd, ge, paths[i], wd, we)
				}
			}
		}
	}
	if !after.mixed || !before.mixed || h.filesystem(nil).mixed {
		t.Error("mixed slot directories not told apart")
	}
}

// cmpHit orders as the joined paths do.
func TestCmpHitIsPathOrder(t *testing.T) {
	parts := []string{"", "/", "/d/", "/d", "a", "a/", "a-b", "a.b", "ab", "b", "/d/a", "10", "1", "-"}
	for _, d1 := range parts {
		for _, n1 := range parts {
			for _, d2 := range parts {
				for _, n2 := range parts {
					a, b := hit{dir: d1, name: n1}, hit{dir: d2, name: n2}
					if got, want := cmpHit(a, b), strings.Compare(d1+n1, d2+n2); got != want {
						t.Fatalf("cmpHit(%q+%q, %q+%q) = %d, want %d", d1, n1, d2, n2, got, want)
					}
				}
			}
		}
	}
}

// reachesByCut is the word-by-word walk scope.reaches replaced, splitting the word on every
// call: the reference it must agree with.
func reachesByCut(word, p string) bool {
	if !strings.HasPrefix(word, "/") || !strings.HasPrefix(p, "/") {
		return true
	}
	w, q := word[1:], p[1:]
	for w != "" && q != "" {
		var we, qe string
		we, w, _ = strings.Cut(w, "/")
		qe, q, _ = strings.Cut(q, "/")
		if !strings.ContainsAny(we, `*?[\`) {
			if we != qe {
				return false
			}
			continue
		}
		if strings.ContainsRune(we, '\\') {
			continue
		}
		if ok, err := path.Match(we, qe); !ok && err == nil {
			return false
		}
	}
	return true
}

func TestScopeReachesAsTheWalk(t *testing.T) {
	words := []string{"/", "", "rel/*", "/sys/class/infiniband/*/ports/*/gids/*", "/sys/class/net/eno1/mtu/", "/sys//class/*",
		"/sys/class/net/*/", "/a//", "/sys/class/infiniband/mlx5_\\0/ports/*", "/sys/class/infiniband/mlx5_[/x", "/sys/class/*/*/ports/1/*",
		"/etc/profile.d/*.sh", "/sys/class/infiniband/mlx5_0/ports/1/hw_counters/rx_*", "/sys/class/infiniband/mlx5_[0-1]/tc/?/traffic_class"}
	paths := []string{"/", "/sys", "/sys/", "/sys/class/net/eno1/mtu", "/sys/class/net/eno1/", "/sys/class/infiniband/mlx5_0/ports/1/gids/12",
		"/sys/class/infiniband/mlx5_0/ports/1/hw_counters/rx_write_requests", "/sys/class/infiniband/mlx5_0/ports/1/hw_counters/lifespan",
		"/sys/class/infiniband/mlx5_1/tc/1/traffic_class", "/sys/class/infiniband/mlx5_2/tc/1/traffic_class", "/etc/profile.d/a.sh",
		"/etc/profile.d/", "/a", "/a/", "/a/b", "/sys//class/x", "rel/x", "", "/sys/class/infiniband/mlx5_0/ports/1/gid_attrs/"}
	for _, w := range words {
		sc := scopedVFS([]string{w}).scopes[0]
		for _, p := range paths {
			if got, want := sc.reaches(p), reachesByCut(w, p); got != want {
				t.Errorf("word %q path %q: reaches %v, the walk %v", w, p, got, want)
			}
		}
	}
}

// isClean is path.Clean's fixed points among absolute paths other than the root.
func TestIsClean(t *testing.T) {
	for _, p := range []string{"/", "", "a", "/a", "/a/", "/a//b", "/a/./b", "/a/../b", "/a/.", "/a/..", "/.a/b..", "/a/b", "//a", "/..", "/."} {
		if got, want := isClean(p), p != "/" && strings.HasPrefix(p, "/") && path.Clean(p) == p; got != want {
			t.Errorf("isClean(%q) = %v, want %v", p, got, want)
		}
	}
}

// sortedHits answers as slices.IsSortedFunc with cmpHit on what globs walk, named slot
// directories in and out of order included, and a hit's slot is the one its name is.
func TestSortedHitsAndSlotIndex(t *testing.T) {
	h := NewGPUHost("gpu01", 1)
	h.OFED = true
	fs := h.filesystem(nil)
	fs.addNamedSlots("/n/up", []string{"a", "b", "c10", "c9"}, func(i int) vfile { return vfile{data: strconv.Itoa(i)} })
	fs.addNamedSlots("/n/down", []string{"z", "y", "b", "a"}, func(i int) vfile { return vfile{data: strconv.Itoa(i)} })
	fs.addSlots("/n/num", 120, func(i int) vfile { return vfile{data: strconv.Itoa(i)} })
	for _, w := range []string{"/sys/class/infiniband/*/ports/*/gids/*", "/sys/class/infiniband/*/ports/*/hw_counters/*",
		"/sys/class/net/*/ecn/*/enable/*", "/n/*/*", "/n/down/*", "/n/up/*", "/n/num/1*", "/n/*/b", "/n/num/99", "/sys/class/*/*/*"} {
		hits := fs.appendMatch(nil, w)
		if len(hits) == 0 {
			t.Fatalf("%q names nothing", w)
		}
		if got, want := sortedHits(hits), slices.IsSortedFunc(hits, cmpHit); got != want {
			t.Errorf("%q: sortedHits %v, IsSortedFunc %v", w, got, want)
		}
		for _, h := range hits {
			if h.slot == nil {
				continue
			}
			if i, ok := h.slot.lookup(h.name); !ok || i != h.i {
				t.Errorf("%q: hit %q has slot %d, its name is %d %v", w, h.path(), h.i, i, ok)
			}
		}
	}
	if hits := fs.appendMatch(nil, "/n/down/*"); sortedHits(hits) {
		t.Error("a named slot directory out of order taken as sorted")
	}
}

// glob is appendGlob's hits as paths.
func (fs *vfs) glob(word string) []string {
	var out []string
	for _, h := range fs.appendGlob(nil, word) {
		out = append(out, h.path())
	}
	return out
}

// match is appendMatch's hits as paths.
func (fs *vfs) match(pattern string) []string {
	var out []string
	for _, h := range fs.appendMatch(nil, pattern) {
		out = append(out, h.path())
	}
	return out
}
