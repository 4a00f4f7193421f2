package topology

// IsSnapshotCounter says whether a host NIC counter is kept in a collected snapshot. An mlx5
// port has ~250 ethtool -S and hw_counters entries; as a map they were a third of an audit's
// live heap, yet from the snapshot only the loss, pause and traffic counters are read
// (HOST-PFC-STORM's storm marks are pause counters). A transfer samples its own counters and
// keeps all of them, and the raw transcript keeps every line of the outputs.
func IsSnapshotCounter(name string) bool {
	return IsLossCounter(name) || IsPauseCounter(name) || IsTrafficCounter(name)
}

// PruneHostCounters drops from every host port the counters IsSnapshotCounter does not keep.
func PruneHostCounters(d *Device) {
	if d == nil || d.Host == nil {
		return
	}
	for _, p := range d.Host.Ports {
		if p == nil {
			continue
		}
		for k := range p.Counters.Value {
			if !IsSnapshotCounter(k) {
				delete(p.Counters.Value, k)
			}
		}
	}
}
