package topology

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// MergeSnapshots joins snapshots of parts of one fabric (shards, or collections of separate
// inventories) into one: the union of their devices (a device in two is an error), links and
// paths (duplicates once), and their transfers. Their recipes must agree. Shards of one
// inventory must all be there; they are put back in the inventory's order.
func MergeSnapshots(snaps []*Snapshot) (*Snapshot, error) {
	if len(snaps) == 0 {
		return nil, fmt.Errorf("no snapshot to merge")
	}
	if len(snaps) == 1 {
		return snaps[0], nil
	}
	first := snaps[0]
	out := &Snapshot{Schema: first.Schema, ToolVersion: first.ToolVersion, Started: first.Started,
		Finished: first.Finished, Recipe: first.Recipe}
	owner := map[string]int{}
	links := map[Link]bool{}
	paths := map[[2]string]bool{}
	for i, s := range snaps {
		if !reflect.DeepEqual(s.Recipe, first.Recipe) {
			return nil, fmt.Errorf("snapshot %d has another recipe than snapshot 1 (collected with other inventories?)", i+1)
		}
		if s.Started.Before(out.Started) {
			out.Started = s.Started
		}
		if s.Finished.After(out.Finished) {
			out.Finished = s.Finished
		}
		out.Simulated = out.Simulated || s.Simulated
		for _, d := range s.Devices {
			if j, dup := owner[d.Name]; dup {
				return nil, fmt.Errorf("device %s is in snapshot %d and snapshot %d", d.Name, j+1, i+1)
			}
			owner[d.Name] = i
			out.Devices = append(out.Devices, d)
		}
		for _, l := range s.Links {
			if !links[l] {
				links[l] = true
				out.Links = append(out.Links, l)
			}
		}
		for _, p := range s.Paths {
			if !paths[p] {
				paths[p] = true
				out.Paths = append(out.Paths, p)
			}
		}
		out.Transfers = append(out.Transfers, s.Transfers...)
	}
	if err := orderShards(snaps, out); err != nil {
		return nil, err
	}
	return out, nil
}

// orderShards checks that shards of one inventory are complete and puts their devices back
// in the inventory's order. Snapshots that are not all shards are left in the given order.
func orderShards(snaps []*Snapshot, out *Snapshot) error {
	ref := snaps[0].Shard
	if ref == nil {
		return nil
	}
	seen := make([]bool, ref.Count)
	for i, s := range snaps {
		sh := s.Shard
		if sh == nil || sh.Count != ref.Count || !slices.Equal(sh.Inventory, ref.Inventory) {
			return fmt.Errorf("snapshot %d is not a shard of the same collection as snapshot 1", i+1)
		}
		if sh.Index < 0 || sh.Index >= sh.Count {
			return fmt.Errorf("snapshot %d: shard %d/%d is out of range", i+1, sh.Index, sh.Count)
		}
		if seen[sh.Index] {
			return fmt.Errorf("shard %d/%d is given twice", sh.Index, sh.Count)
		}
		seen[sh.Index] = true
	}
	var missing []string
	for k := range ref.Count {
		if !seen[k] {
			missing = append(missing, fmt.Sprintf("%d/%d", k, ref.Count))
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("shard %s missing: devices and the links between them would go unchecked", strings.Join(missing, ", "))
	}
	pos := make(map[string]int, len(ref.Inventory))
	for i, n := range ref.Inventory {
		pos[n] = i
	}
	slices.SortStableFunc(out.Devices, func(a, b *Device) int { return pos[a.Name] - pos[b.Name] })
	return nil
}
