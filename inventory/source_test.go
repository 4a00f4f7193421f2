package inventory

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkInvalidFiles runs parse over every file matching glob. Each file's first line is
// `# want: :LINE:COL: message`; the file must fail with exactly one *InventoryError that
// begins FILE:LINE:COL: message.
func checkInvalidFiles(t *testing.T, glob string, min int, parse func(file string, data []byte) (*Inventory, error)) {
	t.Helper()
	files, err := filepath.Glob(glob)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < min {
		t.Fatalf("found %d invalid files for %s, expected at least %d", len(files), glob, min)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			first, _, _ := strings.Cut(string(data), "\n")
			want, ok := strings.CutPrefix(first, "# want: ")
			if !ok || !strings.HasPrefix(want, ":") {
				t.Fatalf("first line %q is not `# want: :LINE:...`", first)
			}
			inv, err := parse(file, data)
			if err == nil {
				t.Fatalf("loaded without error: %+v", inv)
			}
			if inv != nil {
				t.Errorf("got an inventory along with the error")
			}
			if got := err.Error(); !strings.HasPrefix(got, file+want) {
				t.Errorf("error:\n  %s\nwant it to start with:\n  %s", got, file+want)
			}
			if n := countErrors(err); n != 1 {
				t.Errorf("got %d errors, want exactly 1:\n%v", n, err)
			}
			var ie *Error
			if !errors.As(err, &ie) || ie.File != file {
				t.Errorf("error is not an *InventoryError for %s: %#v", file, err)
			}
		})
	}
}

func TestOpenInventoryDispatch(t *testing.T) {
	t.Setenv("USER", "tester")
	native := filepath.Join("testdata", "inventory", "valid", "minimal.yaml")
	clab := filepath.Join("testdata", "imports", "clab", "valid", "roce-clos.clab.yml")
	ansible := filepath.Join("testdata", "imports", "ansible", "valid", "fabric.yml")
	for _, tc := range []struct {
		spec      string
		first     string // name of the first device
		platforms int    // distinct platforms among devices
	}{
		{native, "gpu01", 1},
		{"clab:" + clab, "gpu01", 5},
		{"CLAB:" + clab, "gpu01", 5},
		{"ansible:" + ansible, "gpu01", 5},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			inv, err := Open(tc.spec, testPlatforms)
			if err != nil {
				t.Fatal(err)
			}
			if inv.Devices[0].Name != tc.first {
				t.Errorf("first device %q, want %q", inv.Devices[0].Name, tc.first)
			}
			seen := map[string]bool{}
			for _, d := range inv.Devices {
				seen[d.Platform] = true
			}
			if len(seen) != tc.platforms {
				t.Errorf("platforms %v, want %d distinct", seen, tc.platforms)
			}
		})
	}
}

func TestOpenInventoryErrors(t *testing.T) {
	dir := t.TempDir()
	// A file whose name looks like a prefix is still read as a roceaudit inventory.
	colon := filepath.Join(dir, "site:a.yaml")
	if err := os.WriteFile(colon, []byte("version: 1\nhosts:\n  - {name: gpu01, address: 10.0.0.1, user: ops}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if inv, err := Open(colon, testPlatforms); err != nil || len(inv.Devices) != 1 {
		t.Errorf("OpenInventory(%q) = %v, %v; want the one-host inventory", colon, inv, err)
	}
	rel := "site:nope.yaml"
	for _, tc := range []struct {
		spec     string
		want     []string
		notExist bool
	}{
		{"nbx:inventory.yml", []string{`"nbx:" is not an inventory type`, "clab:FILE", "ansible:FILE", "netbox:https://HOST"}, false},
		{rel, []string{`"site:" is not an inventory type`}, false},
		{"clab:", []string{"no file after clab:"}, false},
		{"ansible:", []string{"no file after ansible:"}, false},
		{"clab:" + filepath.Join(dir, "missing.clab.yml"), []string{"read containerlab topology"}, true},
		{"ansible:" + filepath.Join(dir, "missing.yml"), []string{"read Ansible inventory"}, true},
		{filepath.Join(dir, "missing.yaml"), []string{"read inventory"}, true},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			_, err := Open(tc.spec, testPlatforms)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if got := errors.Is(err, os.ErrNotExist); got != tc.notExist {
				t.Errorf("errors.Is(err, os.ErrNotExist) = %v, want %v (%v)", got, tc.notExist, err)
			}
		})
	}
}

// Imported inventories take the same built-in defaults as native ones, and report the same
// way when the environment cannot supply them.
func TestImportEnvironmentWithoutUser(t *testing.T) {
	bare := inventoryEnv{
		user: func() string { return "" },
		home: func() (string, error) { return "/home/x", nil },
	}
	src := "name: l\ntopology:\n  nodes:\n    a: {kind: linux}\n    b: {kind: linux}\n"
	_, err := parseContainerlab("t.clab.yml", []byte(src), testPlatforms, bare)
	if err == nil || countErrors(err) != 1 || !strings.HasPrefix(err.Error(), "t.clab.yml:4:5: no SSH user") {
		t.Errorf("containerlab without $USER: %v; want one error at the first node", err)
	}
	src = "all:\n  hosts:\n    a:\n    b:\n      ansible_user: ops\n"
	_, err = parseAnsible("hosts.yml", []byte(src), testPlatforms, bare)
	if err == nil || countErrors(err) != 1 || !strings.HasPrefix(err.Error(), "hosts.yml:3:5: no SSH user") {
		t.Errorf("Ansible without $USER: %v; want one error at the host without ansible_user", err)
	}
	src = "all:\n  vars: {ansible_user: ops}\n  hosts:\n    a:\n"
	if _, err := parseAnsible("hosts.yml", []byte(src), testPlatforms, bare); err != nil {
		t.Errorf("ansible_user set for all, still: %v", err)
	}
}

// YAML merge keys are resolved, and a key of the mapping itself wins over a merged one.
func TestImportMergeKeys(t *testing.T) {
	src := `all:
  hosts:
    a: &base
      ansible_user: ops
      ansible_port: 2200
    b:
      <<: *base
      ansible_port: 2300
`
	inv, err := parseAnsible("hosts.yml", []byte(src), testPlatforms, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := inv.Device("b")
	if b.Conn.User != "ops" || b.Conn.Port != 2300 {
		t.Errorf("b: user %q port %d, want ops 2300", b.Conn.User, b.Conn.Port)
	}
}
