package topology

import (
	"strings"
	"testing"
	"time"
)

// shards splits s by position into n shards of one collection.
func shards(s *Snapshot, n int) []*Snapshot {
	var names []string
	for _, d := range s.Devices {
		names = append(names, d.Name)
	}
	out := make([]*Snapshot, n)
	for k := range out {
		part := *s
		part.Devices = nil
		part.Shard = &Shard{Index: k, Count: n, Inventory: names}
		part.Started = s.Started.Add(time.Duration(k) * time.Second)
		out[k] = &part
	}
	for i, d := range s.Devices {
		out[(i*7)%n].Devices = append(out[(i*7)%n].Devices, d)
	}
	return out
}

func TestMergeShardsRestoresTheWhole(t *testing.T) {
	whole := sampleSnapshot(9)
	parts := shards(whole, 4)
	// Given in any order, the shards come back in inventory order.
	got, err := MergeSnapshots([]*Snapshot{parts[2], parts[0], parts[3], parts[1]})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Devices) != len(whole.Devices) {
		t.Fatalf("%d devices, want %d", len(got.Devices), len(whole.Devices))
	}
	for i, d := range got.Devices {
		if d != whole.Devices[i] {
			t.Errorf("device %d is %s, want %s", i, d.Name, whole.Devices[i].Name)
		}
	}
	if len(got.Links) != len(whole.Links) || len(got.Paths) != 1 {
		t.Errorf("links %d paths %d: duplicates not merged", len(got.Links), len(got.Paths))
	}
	if !got.Started.Equal(whole.Started) || got.Shard != nil {
		t.Errorf("started %v shard %+v", got.Started, got.Shard)
	}
}

func TestMergeRefuses(t *testing.T) {
	whole := sampleSnapshot(6)
	otherRecipe := shards(whole, 2)
	otherRecipe[1].Recipe.RoCEDSCP = 24
	twice := shards(whole, 3)
	twice[2] = twice[0]
	foreign := shards(whole, 2)
	foreign[1].Shard = &Shard{Index: 1, Count: 3, Inventory: foreign[1].Shard.Inventory}
	dup := []*Snapshot{sampleSnapshot(2), sampleSnapshot(1)}
	for name, c := range map[string]struct {
		snaps []*Snapshot
		want  string
	}{
		"recipes differ":   {otherRecipe, "another recipe"},
		"missing shard":    {shards(whole, 3)[:2], "shard 2/3 missing"},
		"shard twice":      {twice, "is in snapshot"},
		"other collection": {foreign, "not a shard of the same collection"},
		"device twice":     {dup, "device h0 is in snapshot 1 and snapshot 2"},
		"nothing":          {nil, "no snapshot"},
	} {
		_, err := MergeSnapshots(c.snaps)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", name, err, c.want)
		}
	}
}
