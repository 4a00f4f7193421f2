package inventory

import (
	"os"
	"path/filepath"
	"testing"
)

// seedFiles adds every file matching glob under testdata to the corpus.
func seedFiles(f *testing.F, globs ...string) {
	f.Helper()
	for _, g := range globs {
		files, _ := filepath.Glob(filepath.Join("testdata", g))
		for _, file := range files {
			if b, err := os.ReadFile(file); err == nil {
				f.Add(string(b))
			}
		}
	}
}

// The loaders read files users write by hand (and importers read files other tools write):
// any text is either an inventory or an error with a place, never a panic.

func FuzzParseNative(f *testing.F) {
	seedFiles(f, "inventory/valid/*.yaml", "inventory/invalid/*.yaml")
	f.Fuzz(func(t *testing.T, s string) {
		inv, err := parseInventory("fuzz.yaml", []byte(s), testPlatforms, testEnv())
		if err == nil && len(inv.Devices) == 0 {
			t.Errorf("an inventory with no device was accepted")
		}
	})
}

func FuzzParseAnsible(f *testing.F) {
	seedFiles(f, "imports/ansible/valid/*", "imports/ansible/invalid/*")
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = ParseAnsible("fuzz.ini", []byte(s), testPlatforms)
	})
}

func FuzzParseContainerlab(f *testing.F) {
	seedFiles(f, "imports/clab/valid/*", "imports/clab/invalid/*")
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = ParseContainerlab("fuzz.clab.yml", []byte(s), testPlatforms)
	})
}
