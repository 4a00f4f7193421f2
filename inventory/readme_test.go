package inventory

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/recipe"
)

// The README is the users' only reference for the inventory: every key the parser accepts,
// every recipe key and every import variable must be in it.
func TestREADMEDocumentsEveryKey(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	keys := append(append(append([]string{}, topKeys...), hostKeys...), switchKeys...)
	rt := reflect.TypeFor[recipe.Recipe]()
	for i := range rt.NumField() {
		tag, _, _ := strings.Cut(rt.Field(i).Tag.Get("yaml"), ",")
		keys = append(keys, tag)
	}
	for _, k := range keys {
		if !strings.Contains(readme, k+":") && !strings.Contains(readme, "`"+k+"`") {
			t.Errorf("README.md does not document the inventory key %q", k)
		}
	}
	vars := []string{ansKey, ansBecome, ansNetworkOS, ansPriority, ansPlatform, ansAddress, ansConnection, clabPlatformLabel}
	vars = append(append(append(vars, ansHostVars...), ansUserVars[:2]...), ansPortVars...)
	for _, k := range connKeys {
		vars = append(vars, roceauditVarPrefix+k, clabLabelPrefix+k)
	}
	for _, k := range overlayKeys {
		if !strings.Contains(readme, "\n  "+k+":") && !strings.Contains(readme, "  "+k+": {") {
			t.Errorf("README.md does not document the --defaults key %q", k)
		}
	}
	for _, k := range optionKeys {
		if !strings.Contains(readme, "?"+k+"=") && !strings.Contains(readme, "&"+k+"=") && !strings.Contains(readme, "--"+k) {
			t.Errorf("README.md does not document the source option %q", k)
		}
	}
	if !strings.Contains(readme, "{address: ") {
		t.Errorf("README.md does not document the overlay's devices: address")
	}
	for _, v := range vars {
		if !strings.Contains(readme, "`"+v) {
			t.Errorf("README.md does not document the import variable %q", v)
		}
	}
}
