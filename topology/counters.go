package topology

import (
	"github.com/roceaudit/roceaudit/internal/memo"
)

// IsSnapshotCounter says whether a host NIC counter is kept in a collected snapshot. An mlx5
// port has ~250 ethtool -S and hw_counters entries; as a map they were a third of an audit's
// live heap, yet from the snapshot only the loss, pause and traffic counters are read
// (HOST-PFC-STORM's storm marks are pause counters). A transfer samples its own counters and
// keeps all of them, and the raw transcript keeps every line of the outputs.
func IsSnapshotCounter(name string) bool { return snapshotCounters.Get(name) }

// snapshotCounters remembers IsSnapshotCounter: the same few hundred names recur on every
// port, and the word scan was 5% of a check's CPU (a sync.Map look-up then 3% of an 8-rail
// audit's). Names come from devices, so the memo is bounded.
var snapshotCounters = memo.New(2048, func(name string) bool {
	return IsLossCounter(name) || IsPauseCounter(name) || IsTrafficCounter(name)
})

// PruneHostCounters keeps on every host port only the counters IsSnapshotCounter names, in a
// new map (a map does not shrink when its entries are deleted); a map that holds no other
// counter, as a collector that filtered while parsing leaves it, stays as it is.
func PruneHostCounters(d *Device) {
	if d == nil || d.Host == nil {
		return
	}
	for _, p := range d.Host.Ports {
		if p == nil || p.Counters.Value == nil || onlySnapshotCounters(p.Counters.Value) {
			continue
		}
		kept := map[string]int64{}
		for k, v := range p.Counters.Value {
			if IsSnapshotCounter(k) {
				kept[k] = v
			}
		}
		p.Counters.Value = kept
	}
}

func onlySnapshotCounters(m map[string]int64) bool {
	for k := range m {
		if !IsSnapshotCounter(k) {
			return false
		}
	}
	return true
}
