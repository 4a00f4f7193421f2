package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"
)

// goneInventory has one host nobody listens for (port 1 on 127.0.0.1 refuses), with a key
// and a known_hosts file that this machine can read: the device, not the setup, fails.
func goneInventory(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	block, err := ssh.MarshalPrivateKey(priv, "gone")
	if err != nil {
		t.Fatal(err)
	}
	key := writeFile(t, dir, "id_ed25519", string(pem.EncodeToMemory(block)))
	known := writeFile(t, dir, "known_hosts", "# none yet\n")
	return writeFile(t, dir, "inv.yaml", "version: 1\ndefaults:\n  user: netops\n  identity_file: "+key+"\n  known_hosts: "+
		known+"\n  timeout: 2s\nhosts:\n  - name: gone01\n    address: 127.0.0.1\n    port: 1\n")
}

// A report named by a symlink is written to the link's target; the link stays.
func TestReportIsWrittenThroughASymlink(t *testing.T) {
	l := startLab(t, "healthy")
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "reports"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "latest.json")
	if err := os.Symlink("reports/2026-12-01.json", link); err != nil {
		t.Fatal(err)
	}
	code, _, errs := run(t, "audit", "-i", l.InventoryPath, "--quiet", "--report", "json="+link)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the symlink was replaced: %v %v", st.Mode(), err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "reports", "2026-12-01.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep map[string]any
	if err := json.Unmarshal(data, &rep); err != nil || rep["schema"] == nil {
		t.Errorf("the target does not hold the report: %v", err)
	}
}

// A report or snapshot that cannot be written is refused before any device is contacted
// (the unreachable host would otherwise make the exit code 3).
func TestUnwritableOutputIsAUsageErrorBeforeCollecting(t *testing.T) {
	inv := goneInventory(t)
	folder := t.TempDir()
	for _, args := range [][]string{
		{"audit", "-i", inv, "--report", "html=" + folder},
		{"audit", "-i", inv, "--report", "json=" + filepath.Join(folder, "missing", "r.json")},
		{"collect", "-i", inv, "-o", folder},
	} {
		code, _, errs := run(t, args...)
		if code != exitUsage || !(strings.Contains(errs, "is a folder") || strings.Contains(errs, "does not exist")) {
			t.Errorf("%v: exit %d, stderr %q; want %d naming the problem", args, code, errs, exitUsage)
		}
		if strings.Contains(errs, "gone01") {
			t.Errorf("%v: a device was contacted: %s", args, errs)
		}
	}
}

// collect with no device reachable writes the snapshot but does not claim success.
func TestCollectWithUnreachableDevicesIsIncomplete(t *testing.T) {
	snap := filepath.Join(t.TempDir(), "snap.json")
	code, _, errs := run(t, "collect", "-i", goneInventory(t), "-o", snap)
	if code != exitIncomplete {
		t.Errorf("exit %d, want %d: %s", code, exitIncomplete, errs)
	}
	if _, err := os.Stat(snap); err != nil {
		t.Errorf("no snapshot written: %v", err)
	}
}

// Input that can be judged from the inventory alone is refused before any device is
// contacted: unknown endpoints, a switch as an endpoint, the same endpoint twice, filters
// that leave nothing to run.
func TestBadEndpointsAndEmptyFiltersAreUsageErrors(t *testing.T) {
	inv := goneInventory(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"audit", "-i", inv, "--path", "gone01,nohost"}, `--path gone01,nohost: unknown host "nohost"`},
		{[]string{"path", "-i", inv, "gone01", "gone02:eth0"}, `unknown host "gone02"`},
		{[]string{"transfer", "-i", inv, "gone01", "gone01"}, "both ends are gone01"},
		{[]string{"audit", "-i", inv, "--only", "HOST-MTU", "--skip", "HOST-MTU"}, "leaves no check to run"},
	} {
		code, _, errs := run(t, tc.args...)
		if code != exitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, errs, exitUsage, tc.want)
		}
	}
}
