package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/topology"
)

// N shards collected apart and checked together give exactly the results of one unsharded
// audit, links and paths between shards included (the broken lab: failures on every kind of
// hop and an unreachable device).
func TestShardsMergedAreTheWholeAudit(t *testing.T) {
	l := startLab(t, "broken")
	dir := t.TempDir()
	code, out, errs := run(t, "audit", "-i", l.InventoryPath, "--format", "json")
	if code != exitFailed {
		t.Fatalf("audit exit %d: %s", code, errs)
	}
	whole := decodeReport(t, out)

	const n = 3
	args := []string{"check"}
	seen := 0
	for k := range n {
		file := filepath.Join(dir, fmt.Sprintf("shard-%d.json.gz", k))
		// gpu09's wrong host key makes the shard holding it incomplete (exit 3).
		if code, _, errs := run(t, "collect", "-i", l.InventoryPath, "--shard", fmt.Sprintf("%d/%d", k, n), "-o", file); code != exitOK && code != exitIncomplete {
			t.Fatalf("collect shard %d: exit %d: %s", k, code, errs)
		}
		snap, err := topology.OpenSnapshot(file, topology.ReadOptions{Transcripts: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(snap.Devices) == 0 || len(snap.Devices) == len(whole.Devices) {
			t.Errorf("shard %d holds %d of %d devices", k, len(snap.Devices), len(whole.Devices))
		}
		seen += len(snap.Devices)
		args = append(args, file)
	}
	if seen != len(whole.Devices) {
		t.Errorf("shards hold %d devices, the inventory %d", seen, len(whole.Devices))
	}
	code, out, errs = run(t, append(args, "--format", "json")...)
	if code != exitFailed {
		t.Fatalf("check of the shards: exit %d: %s", code, errs)
	}
	merged := decodeReport(t, out)
	if diff := cmp.Diff(whole.Results, merged.Results); diff != "" {
		t.Errorf("merged shards differ from the whole audit (-audit +shards):\n%s", diff)
	}
	if diff := cmp.Diff(whole.Devices, merged.Devices); diff != "" {
		t.Errorf("devices (-audit +shards):\n%s", diff)
	}
	if !strings.Contains(out, "LINK-") {
		t.Error("no link result in the merged check")
	}

	// Without one shard, the check refuses rather than miss the links to it.
	if code, _, errs := run(t, args[:len(args)-1]...); code != exitUsage || !strings.Contains(errs, "shard 2/3 missing") {
		t.Errorf("check without shard 2: exit %d: %s", code, errs)
	}
}

func TestShardFlagErrors(t *testing.T) {
	for _, v := range []string{"3/3", "4/3", "0/0", "x/2", "1", "1/2/3", "-1/2", "1/x"} {
		code, _, errs := run(t, "collect", "-i", "nowhere.yaml", "-o", filepath.Join(t.TempDir(), "s.json"), "--shard", v)
		if code != exitUsage || !strings.Contains(errs, "--shard") {
			t.Errorf("--shard %s: exit %d: %s", v, code, errs)
		}
	}
}

// Every device falls in exactly one shard, and shards are balanced enough to be worth it.
func TestShardOfSpreadsDevices(t *testing.T) {
	const n, devices = 8, 8000
	count := make([]int, n)
	for i := range devices {
		k := shardOf(fmt.Sprintf("gpu%04d", i), n)
		if k < 0 || k >= n {
			t.Fatalf("shard %d out of 0..%d", k, n-1)
		}
		count[k]++
	}
	for k := range n {
		if count[k] < devices/n*8/10 || count[k] > devices/n*12/10 {
			t.Errorf("shard %d holds %d of %d devices", k, count[k], devices)
		}
	}
}
