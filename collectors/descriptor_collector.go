package collectors

// Collector is the platform's collector itself, for the optional capabilities a caller may look
// for on it (a counter refresh interval, ...).
func (d *Descriptor) Collector() Collector { return d.spec.Collector }
