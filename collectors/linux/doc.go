// Package linux collects the RoCE facts of a Linux RDMA host: netdevs, RDMA ports, the GID
// table, trust/PFC/ETS (mlnx_qos or iproute2 dcb), link pause, DCQCN, the RoCE ToS,
// counters and the LLDP neighbours lldpd has learned. Parsers are pure functions of command output; Collect sends only the commands of
// the read-only allowlist (commands.go) and never writes anything on the host.
package linux
