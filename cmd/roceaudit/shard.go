package main

import (
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

// shardFlag is collect --shard K/N: K is 0-based (0..N-1), as a Kubernetes Indexed Job's
// completion index, so a Job passes --shard $(JOB_COMPLETION_INDEX)/N with no arithmetic;
// "0/1" is the whole inventory.
type shardFlag struct{ k, n int }

func parseShard(v string) (shardFlag, error) {
	ks, ns, ok := strings.Cut(v, "/")
	k, kerr := strconv.Atoi(ks)
	n, nerr := strconv.Atoi(ns)
	if !ok || kerr != nil || nerr != nil || n < 1 || k < 0 || k >= n {
		return shardFlag{}, usagef("--shard %q: expected K/N with 0 <= K < N (K counts from 0), e.g. 0/4 to 3/4", v)
	}
	return shardFlag{k: k, n: n}, nil
}

// shardOf is the shard (0..n-1) a device belongs to among n: FNV-1a of its name mod n, so a
// device stays in its shard whatever else the inventory holds.
func shardOf(name string, n int) int {
	h := fnv.New32a()
	h.Write([]byte(name))
	return int(h.Sum32() % uint32(n))
}

// apply narrows inv to the shard's devices (links and paths stay whole: they are checked
// once the shards are merged) and returns what the snapshot records of the shard.
func (s shardFlag) apply(inv *inventory.Inventory) (*inventory.Inventory, *topology.Shard) {
	part := *inv
	part.Devices = nil
	names := make([]string, 0, len(inv.Devices))
	for _, d := range inv.Devices {
		names = append(names, d.Name)
		if shardOf(d.Name, s.n) == s.k {
			part.Devices = append(part.Devices, d)
		}
	}
	return &part, &topology.Shard{Index: s.k, Count: s.n, Inventory: names}
}
