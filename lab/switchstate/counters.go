package switchstate

// The traffic counters of a port, by their IF-MIB names (RFC 2863 ifHCInOctets, ...): every
// frame a port receives or sends adds to them. Each switch emulator renders them in its NOS's
// own counters command; Port.Counters holds them beside the queue and PFC counters.
const (
	InOctets     = "in_octets"
	OutOctets    = "out_octets"
	InUcastPkts  = "in_ucast_pkts"
	OutUcastPkts = "out_ucast_pkts"
)
