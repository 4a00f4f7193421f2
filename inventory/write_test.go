package inventory

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// What any source became, written as a roceaudit inventory, reads back to the same
// inventory.
func TestMarshalYAMLRoundTrip(t *testing.T) {
	native, err := filepath.Glob("testdata/inventory/valid/*.yaml")
	if err != nil || len(native) == 0 {
		t.Fatalf("native inventories: %v %v", native, err)
	}
	type src struct {
		file  string
		parse func(string, []byte, Platforms, inventoryEnv) (*Inventory, error)
	}
	srcs := []src{
		{"testdata/imports/clab/valid/roce-clos.clab.yml", parseContainerlab},
		{"testdata/imports/clab/valid/prefix-defaults.clab.yml", parseContainerlab},
		{"testdata/imports/ansible/valid/fabric.yml", parseAnsible},
		{"testdata/imports/ansible/valid/fabric.ini", parseAnsible},
		{"testdata/imports/ansible/valid/fabric.json", parseAnsible},
	}
	for _, f := range native {
		srcs = append(srcs, src{f, parseInventory})
	}
	for _, s := range srcs {
		t.Run(s.file, func(t *testing.T) {
			inv, err := s.parse(s.file, mustRead(t, s.file), testPlatforms, testEnv())
			if err != nil {
				t.Fatal(err)
			}
			out, err := inv.MarshalYAML()
			if err != nil {
				t.Fatal(err)
			}
			back := filepath.Join(t.TempDir(), "inventory.yaml")
			if err := os.WriteFile(back, out, 0o600); err != nil {
				t.Fatal(err)
			}
			again, err := parseInventory(back, out, testPlatforms, testEnv())
			if err != nil {
				t.Fatalf("written inventory does not load: %v\n%s", err, out)
			}
			ignore := cmpopts.IgnoreFields(Inventory{}, "File", "Warnings", "Simulated")
			if diff := cmp.Diff(inv, again, ignore, cmpopts.IgnoreFields(DeviceSpec{}, "Line"), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("round trip (-source +written):\n%s\n%s", diff, out)
			}
		})
	}
}

func TestMarshalYAMLOmitsDefaults(t *testing.T) {
	src := "version: 1\nrecipe: {roce_priority: 4}\nhosts:\n  - {name: gpu1, address: 10.0.0.1, password_env: GPU_PW, sudo: true}\nswitches:\n  - {name: sw1, address: sw1.example.net, platform: sonic, user: admin, port: 2222, timeout: 30s}\n"
	inv, err := parseInventory("i.yaml", []byte(src), testPlatforms, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	out, err := inv.MarshalYAML()
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	for _, want := range []string{"version: 1\n", "recipe:\n  roce_priority: 4\n", "password_env: GPU_PW", "sudo: true", "user: admin", "port: 2222", "timeout: 30s"} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	// gpu1 sets no user or port: they stay unwritten, for ~/.ssh/config to decide.
	if strings.Count(s, "user:") != 1 || strings.Count(s, "port:") != 1 || strings.Contains(s, "cnp_dscp") {
		t.Errorf("defaults written:\n%s", s)
	}
}
