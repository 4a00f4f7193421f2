package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/lab/switchstate"
	"github.com/roceaudit/roceaudit/reports"
)

// The lab's switches carry user hashes, enable secrets, TACACS+/RADIUS keys, SNMP
// communities and v3 keys, NTP and BGP keys, as real ones do. None may appear in any report
// format, in the snapshot (whose transcript keeps raw outputs), or on stderr.
func TestNoSecretInAnyReportSnapshotOrLog(t *testing.T) {
	l := startLab(t, "broken")
	var secrets []string
	for _, d := range l.Devices {
		if d.Platform != "linux" {
			sw := &switchstate.Switch{Name: d.Name}
			secrets = append(secrets, sw.ManagementOf().Secrets()...)
		}
	}
	dir := t.TempDir()
	snap := filepath.Join(dir, "snap.json")
	var outputs []string
	_, _, errs := run(t, "collect", "-i", l.InventoryPath, "-o", snap)
	outputs = append(outputs, errs)
	raw, err := os.ReadFile(snap)
	if err != nil {
		t.Fatal(err)
	}
	// The snapshot really holds the configurations the secrets live in.
	if !strings.Contains(string(raw), "TACPLUS_SERVER") || !strings.Contains(string(raw), "tacacs-server host") {
		t.Fatal("the snapshot does not keep the switch configurations: the test would prove nothing")
	}
	outputs = append(outputs, string(raw))
	args := []string{"audit", "-i", l.InventoryPath, "-v"}
	for _, f := range reports.Formats() {
		args = append(args, "--report", f+"="+filepath.Join(dir, "report."+f))
	}
	_, out, errs := run(t, args...)
	outputs = append(outputs, out, errs)
	for _, f := range reports.Formats() {
		data, err := os.ReadFile(filepath.Join(dir, "report."+f))
		if err != nil {
			t.Fatal(err)
		}
		outputs = append(outputs, string(data))
	}
	for i, o := range outputs {
		for _, s := range secrets {
			if strings.Contains(o, s) {
				t.Errorf("output %d holds the secret %q", i, s)
			}
		}
	}
}
