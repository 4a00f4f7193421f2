package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A mistake in this machine's SSH settings is an input error, found before any connection:
// exit 2 with where it is, not every device unreachable and an "incomplete" audit (which
// scheduled runs take for a finished one). validate warns of it.
func TestLocalSSHMistakesAreInputErrors(t *testing.T) {
	l := startLab(t, "healthy")
	raw, err := os.ReadFile(l.InventoryPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ from, to, want string }{
		{"identity_file: id_ed25519", "identity_file: no_such_key", "identity file " + filepath.Join(filepath.Dir(l.InventoryPath), "no_such_key")},
		{"known_hosts: known_hosts", "known_hosts: no_such_known_hosts", "does not exist, so every host key would be unknown"},
	} {
		if !strings.Contains(string(raw), tc.from) {
			t.Fatalf("the lab inventory has no %q", tc.from)
		}
		inv := filepath.Join(filepath.Dir(l.InventoryPath), "local.yaml")
		if err := os.WriteFile(inv, []byte(strings.Replace(string(raw), tc.from, tc.to, 1)), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, cmd := range [][]string{{"audit", "-i", inv}, {"collect", "-i", inv, "-o", filepath.Join(t.TempDir(), "s.json")}} {
			code, _, errs := run(t, cmd...)
			if code != exitUsage || !strings.Contains(errs, tc.want) || !strings.Contains(errs, inv+":") {
				t.Errorf("%s with %s: exit %d, stderr %q; want exit %d naming the inventory and %q", cmd[0], tc.to, code, errs, exitUsage, tc.want)
			}
		}
		// validate judges the inventory, which may be run from elsewhere: it only warns.
		code, out, errs := run(t, "validate", "-i", inv)
		if code != exitOK || !strings.Contains(out, "valid") || !strings.Contains(errs, "warning: ") || !strings.Contains(errs, tc.want) {
			t.Errorf("validate with %s: exit %d, stdout %q, stderr %q; want valid with a warning naming %q", tc.to, code, out, errs, tc.want)
		}
	}
}
