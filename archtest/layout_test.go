package archtest

import (
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
)

// The README's Layout section names every top-level package directory and every collectors
// subpackage, so a rename or a new package cannot leave it stale.
func TestREADMELayoutNamesEveryPackage(t *testing.T) {
	g, err := projectGraph()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, layout, ok := strings.Cut(string(b), "## Layout")
	if !ok {
		t.Fatal("README.md has no Layout section")
	}
	layout, _, _ = strings.Cut(layout, "\n## ")
	words := map[string]bool{}
	for _, w := range strings.Fields(layout) {
		words[strings.TrimSuffix(w, "/")] = true
	}
	for _, pkg := range slices.Sorted(maps.Keys(g)) {
		parts := strings.Split(pkg, "/")
		name := parts[0]
		switch {
		case len(parts) > 1 && parts[0] == "cmd":
			name = "cmd/" + parts[1]
		case len(parts) > 1 && parts[0] == "collectors":
			name = parts[1]
		}
		if !words[name] {
			t.Errorf("README.md Layout does not name %s (package %s)", name, pkg)
		}
	}
}
