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
	root := sysfsCopy(t, map[string]string{
		"gids/0":            "fe80:0000:0000:0000:0e42:a1ff:fec0:0001\n",
		"gids/1":            "0000:0000:0000:0000:0000:ffff:0a00:0001\n",
		"gids/2":            "0000:0000:0000:0000:0000:0000:0000:0000\n",
		"gid_attrs/types/0": "IB/RoCE v1\n",
		"gid_attrs/types/1": "RoCE v2\n",
		"gid_attrs/ndevs/0": "ens1np0\n",
		"gid_attrs/ndevs/1": "ens1np0\n",
	}, "gid_attrs/types/2", "gid_attrs/ndevs/2")
	sh := shell(t)
	run := func(cmd string) string {
		t.Helper()
		out, err := exec.Command(sh, "-c", strings.ReplaceAll(cmd, "/sys/class/infiniband", root)).Output()
		if code := exitCode(err); code != 2 {
			t.Fatalf("%s: exit %d (%v), want 2 as over sysfs", cmd, code, err)
		}
		return strings.ReplaceAll(string(out), root, "/sys/class/infiniband")
	}
	got, dot := run(CmdGIDs), run(strings.Replace(CmdGIDs, "-E '[^0:]'", ".", 1))
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

// A netdev name may be any characters but '/', ':' and spaces: one of no letter or digit
// 1-9 is still read (only a line of 0s and ':' is left out).
func TestGIDCommandKeepsOddNetdevNames(t *testing.T) {
	root := sysfsCopy(t, map[string]string{"gids/0": "fe80:0000:0000:0000:0e42:a1ff:fec0:0001\n",
		"gid_attrs/types/0": "RoCE v2\n", "gid_attrs/ndevs/0": "_-\n"})
	out, _ := exec.Command(shell(t), "-c", strings.ReplaceAll(CmdGIDs, "/sys/class/infiniband", root)).Output()
	got, err := ParseSysfsGIDs(strings.ReplaceAll(string(out), root, "/sys/class/infiniband"))
	if err != nil {
		t.Fatal(err)
	}
	if gids := got[DevPort{"mlx5_0", 1}]; len(gids) != 1 || gids[0].Netdev != "_-" {
		t.Errorf("GIDs %+v, want the one on netdev %q", gids, "_-")
	}
}

// sysfsCopy writes files (paths under mlx5_0's port 1) into a new root standing in for
// /sys/class/infiniband, and makes dirs there (a directory is unreadable to grep, as an
// empty slot's attributes are).
func sysfsCopy(t *testing.T, files map[string]string, dirs ...string) string {
	t.Helper()
	root := t.TempDir()
	port := filepath.Join(root, "mlx5_0", "ports", "1")
	for rel, text := range files {
		p := filepath.Join(port, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(port, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func shell(t *testing.T) string {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatal("no sh on PATH:", err)
	}
	return sh
}
