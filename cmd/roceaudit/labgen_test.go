package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/checks"
)

// lab up --generate announces the generated lab; the cobra root audits it: every check
// passes (exit 0) on every platform, and the lab's paths carry test transfers.
func TestLabUpGeneratedPassesEveryCheck(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lab")
	lab := startLabUp(t, "--generate", "hosts=6,leaves=3,spines=2", "--dir", dir)
	inv := filepath.Join(dir, "inventory.yaml")
	if got, want := lab.out.String(), "lab ready: 11 devices, inventory "+inv+"\n"; got != want {
		t.Errorf("ready line %q, want %q", got, want)
	}
	raw, err := os.ReadFile(inv)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(raw), "# roceaudit lab, generated Clos (hosts=6,leaves=3,spines=2): 11 simulated devices") {
		t.Errorf("inventory header:\n%.200s", raw)
	}

	code, report, errs := run(t, "audit", "-i", inv, "--format", "json")
	if code != exitOK {
		t.Fatalf("audit exit %d: %s", code, errs)
	}
	rep := decodeReport(t, report)
	if bad := keys(rep, checks.Fail, checks.Error, checks.Warn); len(bad) > 0 {
		t.Fatalf("generated lab has findings:\n%s", strings.Join(bad, "\n"))
	}
	var platforms []string
	for _, d := range rep.Devices {
		if !slices.Contains(platforms, d.Platform) {
			platforms = append(platforms, d.Platform)
		}
	}
	slices.Sort(platforms)
	if strings.Join(platforms, ",") != "cumulus,eos,linux,nxos,sonic" || len(rep.Devices) != 11 {
		t.Errorf("%d devices on platforms %v", len(rep.Devices), platforms)
	}
	passed := map[string]int{}
	for _, r := range rep.Results {
		if r.Status == checks.Pass {
			passed[r.Check]++
		}
	}
	for _, id := range []string{"COLLECT-REACH", "HOST-GID-V2", "SW-PFC", "LINK-PFC", "LINK-MTU"} {
		if passed[id] == 0 {
			t.Errorf("%s never passed", id)
		}
	}

	// The paths the inventory lists, across the spines, with test transfers.
	code, report, errs = run(t, "audit", "-i", inv, "--format", "json", "--transfer",
		"--path", "gpu01:ens1f0np0,gpu02:ens1f0np0", "--path", "gpu06:ens1f1np1,gpu01:ens1f0np0")
	if code != exitOK {
		t.Fatalf("audit --transfer exit %d: %s\n%s", code, errs, strings.Join(keys(decodeReport(t, report), checks.Fail, checks.Error), "\n"))
	}
	if rep := decodeReport(t, report); len(rep.Transfers) != 2 {
		t.Errorf("%d transfers, want 2", len(rep.Transfers))
	}

	if code := lab.stop(t); code != exitOK {
		t.Errorf("lab up exit %d after interrupt", code)
	}
}

// Bad --generate values, and --generate with --scenario, are usage errors: nothing starts.
func TestLabUpGenerateFlagErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--generate", "hosts=0,leaves=1,spines=1"}, "hosts=0 is out of range 1..16384"},
		{[]string{"--generate", "hosts=4,leaves=2"}, "spines= is missing"},
		{[]string{"--generate", "hosts=4,leaves=2,spines=1,racks=2"}, `unknown key "racks"`},
		{[]string{"--generate", "hosts=four,leaves=2,spines=1"}, `hosts: "four" is not a positive integer`},
		{[]string{"--generate", ""}, "empty value"},
		{[]string{"--scenario", "healthy", "--generate", "hosts=4,leaves=2,spines=1"}, "--scenario and --generate are mutually exclusive"},
		{[]string{"--generate", "hosts=4,leaves=2,spines=1", "--scenario", "broken"}, "--scenario and --generate are mutually exclusive"},
	} {
		dir := filepath.Join(t.TempDir(), "lab")
		code, out, errs := run(t, append([]string{"lab", "up", "--dir", dir}, c.args...)...)
		if code != exitUsage || out != "" || !strings.Contains(errs, c.want) {
			t.Errorf("lab up %q: exit %d, stdout %q, stderr %q; want exit 2 with %q", c.args, code, out, errs, c.want)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("lab up %q created %s (%v)", c.args, dir, err)
		}
	}
	// demo runs the built-in scenarios only.
	if code, _, errs := run(t, "demo", "--generate", "hosts=4,leaves=2,spines=1"); code != exitUsage || !strings.Contains(errs, "unknown flag: --generate") {
		t.Errorf("demo --generate: exit %d %q", code, errs)
	}
}
