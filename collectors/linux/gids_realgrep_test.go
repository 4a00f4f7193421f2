package linux

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The GID command, run by the real grep and shell over a copy of the sysfs layout, reads the
// GIDs that `grep -s -H .` reads, without the zero GIDs of empty slots, whose attributes
// are unreadable (a directory stands in for the kernel's EINVAL: both are errors grep -s
// silences, exit 2).
func TestGIDCommandOnRealGrep(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatal("no sh on PATH:", err)
	}
	root := t.TempDir()
	port := filepath.Join(root, "mlx5_0", "ports", "1")
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(port, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("gids/0", "fe80:0000:0000:0000:0e42:a1ff:fec0:0001\n")
	write("gids/1", "0000:0000:0000:0000:0000:ffff:0a00:0001\n")
	write("gids/2", "0000:0000:0000:0000:0000:0000:0000:0000\n")
	write("gid_attrs/types/0", "IB/RoCE v1\n")
	write("gid_attrs/types/1", "RoCE v2\n")
	write("gid_attrs/ndevs/0", "ens1np0\n")
	write("gid_attrs/ndevs/1", "ens1np0\n")
	for _, unreadable := range []string{"gid_attrs/types/2", "gid_attrs/ndevs/2"} {
		if err := os.MkdirAll(filepath.Join(port, unreadable), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	run := func(cmd string) string {
		t.Helper()
		out, err := exec.Command(sh, "-c", strings.ReplaceAll(cmd, "/sys/class/infiniband", root)).Output()
		if code := exitCode(err); code != 2 {
			t.Fatalf("%s: exit %d (%v), want 2 as over sysfs", cmd, code, err)
		}
		return strings.ReplaceAll(string(out), root, "/sys/class/infiniband")
	}
	got, dot := run(CmdGIDs), run(strings.Replace(CmdGIDs, "-E '[1-9A-Za-z]'", ".", 1))
	if strings.Contains(got, "gids/2:") || !strings.Contains(dot, "gids/2:") {
		t.Errorf("the zero GID: in the command's output %v, in grep .'s %v; want only grep .'s\n%s", strings.Contains(got, "gids/2:"), strings.Contains(dot, "gids/2:"), got)
	}
	want, err := ParseSysfsGIDs(dot)
	if err != nil {
		t.Fatal(err)
	}
	have, err := ParseSysfsGIDs(got)
	if err != nil {
		t.Fatal(err)
	}
	if len(have[DevPort{"mlx5_0", 1}]) != 2 {
		t.Errorf("GIDs read: %v, want the two set", have)
	}
	if diff := cmp.Diff(want, have); diff != "" {
		t.Errorf("GIDs (-grep . +command):\n%s", diff)
	}
}

func exitCode(err error) int {
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	return -1
}
