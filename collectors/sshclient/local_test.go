package sshclient

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/inventory"
)

// localInventory is n devices sharing conn, as an inventory's defaults: give them.
func localInventory(n int, conn inventory.Connection) *inventory.Inventory {
	inv := &inventory.Inventory{File: "inv.yaml"}
	for i := range n {
		inv.Devices = append(inv.Devices, inventory.DeviceSpec{Name: fmt.Sprintf("gpu%02d", i+1),
			Address: "127.0.0.1", Conn: conn, Line: 10 + i})
	}
	return inv
}

// Mistakes on this machine are found before any connection, once per setting however many
// devices share it, with the inventory line of the first device that has it.
func TestCheckLocalFindsMistakesBeforeConnecting(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	key, _ := writeClientKey(t, dir, "")
	known := writeKnownHosts(t, dir, "# empty but valid")
	garbage := filepath.Join(dir, "garbage")
	if err := os.WriteFile(garbage, []byte("not a known_hosts line\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	good := inventory.Connection{User: "netops", Port: 22, IdentityFile: key, KnownHosts: known}
	if err := CheckLocal(localInventory(3, good), false); err != nil {
		t.Fatalf("a usable setup: %v", err)
	}

	cases := []struct {
		name string
		edit func(c *inventory.Connection)
		tofu bool
		want string // "" for no error
	}{
		{"identity missing", func(c *inventory.Connection) { c.IdentityFile = filepath.Join(dir, "nope") }, false, "identity file " + filepath.Join(dir, "nope")},
		{"identity not a key", func(c *inventory.Connection) { c.IdentityFile = known }, false, "identity file " + known},
		{"known_hosts missing", func(c *inventory.Connection) { c.KnownHosts = filepath.Join(dir, "kh") }, false, "does not exist, so every host key would be unknown"},
		{"known_hosts missing, trust on first use", func(c *inventory.Connection) { c.KnownHosts = filepath.Join(dir, "kh") }, true, ""},
		{"known_hosts a directory", func(c *inventory.Connection) { c.KnownHosts = dir }, true, "is not a regular file"},
		{"known_hosts garbage", func(c *inventory.Connection) { c.KnownHosts = garbage }, false, "no valid entries"},
		{"no credential", func(c *inventory.Connection) { c.IdentityFile, c.PasswordEnv = "", "LEAF_PW_UNSET" }, false, "password_env LEAF_PW_UNSET is not set"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			conn := good
			tc.edit(&conn)
			err := CheckLocal(localInventory(40, conn), tc.tofu)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("unexpected: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			msg := err.Error()
			if !strings.Contains(msg, tc.want) || !strings.Contains(msg, "inv.yaml:10: device gpu01: ") {
				t.Errorf("error %q lacks %q or the first device's line", msg, tc.want)
			}
			if strings.Count(msg, "\n") != 1 {
				t.Errorf("one setting shared by 40 devices should be one problem:\n%s", msg)
			}
		})
	}
}

// Distinct problems are each named, up to a bound.
func TestCheckLocalBoundsItsReport(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	known := writeKnownHosts(t, dir, "# empty but valid")
	inv := &inventory.Inventory{File: "inv.yaml"}
	for i := range 12 {
		inv.Devices = append(inv.Devices, inventory.DeviceSpec{Name: fmt.Sprintf("leaf%d", i), Address: "127.0.0.1", Line: i + 1,
			Conn: inventory.Connection{User: "u", Port: 22, KnownHosts: known, IdentityFile: filepath.Join(dir, fmt.Sprintf("key%d", i))}})
	}
	err := CheckLocal(inv, false)
	if err == nil {
		t.Fatal("twelve missing keys passed")
	}
	if msg := err.Error(); strings.Count(msg, "identity file") != maxLocalProblems || !strings.Contains(msg, "and 7 more") {
		t.Errorf("want %d problems and a count of the rest:\n%s", maxLocalProblems, msg)
	}
}
