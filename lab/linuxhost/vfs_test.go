package linuxhost

import (
	"path"
	"slices"
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
	for _, pattern := range []string{
		"/sys/class/infiniband/*/ports/*/gids/*",
		"/sys/class/infiniband/*/ports/*/gid_attrs/types/*",
		"/sys/class/infiniband/mlx5_0/ports/1/hw_counters/*",
		"/sys/class/net/*/ecn/roce_np/enable/*",
		"/sys/class/net/ens1f0np0/ecn/roce_?p/enable/[0-3]",
		"/sys/class/*", "/*", "/sys/class/infiniband/*/tc/*/traffic_class",
		"/sys/class/net/*/mtu", "/nope/*", "relative/*", "/sys/class/*/", "/sys/./class/*",
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
