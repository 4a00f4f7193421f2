package lab

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Names of the files Start writes in the lab directory.
const (
	IdentityFile   = "id_ed25519"
	KnownHostsFile = "known_hosts"
	InventoryFile  = "inventory.yaml"
)

// labUser is the login the lab accepts and the inventory names.
const labUser = "roceaudit"

// writeFileAtomic writes a file through a temporary file and a rename, so a reader sees
// either nothing or the whole file.
func writeFileAtomic(path string, data []byte, perm os.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	fail := func(err error) error {
		_ = f.Close()
		_ = os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Chmod(perm); err != nil {
		return fail(err)
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// inventoryYAML renders the lab's inventory in the native inventory format; title names the lab
// (`scenario "healthy"`, `generated Clos hosts=...`). Paths are relative: the loader resolves
// them against the inventory's folder, so the lab directory can move.
func inventoryYAML(title string, links, paths [][2]string, devs []*device, ports []int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# roceaudit lab, %s: %d simulated devices on 127.0.0.1 (not a real fabric).\n", title, len(devs))
	b.WriteString("# Written by the lab; it is rewritten on every start.\n")
	b.WriteString("version: 1\n")
	b.WriteString("defaults:\n")
	fmt.Fprintf(&b, "  user: %s\n", labUser)
	fmt.Fprintf(&b, "  identity_file: %s\n", IdentityFile)
	fmt.Fprintf(&b, "  known_hosts: %s\n", KnownHostsFile)
	b.WriteString("  timeout: 10s\n")
	section := ""
	for i, d := range devs {
		want := "hosts"
		if d.sw != nil {
			want = "switches"
		}
		if want != section {
			section = want
			b.WriteString(section + ":\n")
		}
		fmt.Fprintf(&b, "  - name: %s\n", d.name)
		if d.sw != nil {
			fmt.Fprintf(&b, "    platform: %s\n", d.platform)
		}
		b.WriteString("    address: 127.0.0.1\n")
		fmt.Fprintf(&b, "    port: %d\n", ports[i])
		if len(d.interfaces) > 0 {
			fmt.Fprintf(&b, "    interfaces: [%s]\n", strings.Join(d.interfaces, ", "))
		}
		if d.gidIndex != nil {
			fmt.Fprintf(&b, "    gid_index: %d\n", *d.gidIndex)
		}
	}
	b.WriteString("links: # the rest comes from LLDP\n")
	for _, l := range links {
		fmt.Fprintf(&b, "  - [%s, %s]\n", l[0], l[1])
	}
	b.WriteString("# Uncomment to audit only the hops of these paths (roceaudit demo checks them on top of\n")
	b.WriteString("# the whole fabric):\n# paths:\n")
	for _, p := range paths {
		fmt.Fprintf(&b, "#   - [%s, %s]\n", p[0], p[1])
	}
	return b.String()
}
