// Package linux collects the RoCE facts of a Linux RDMA host: netdevs, RDMA ports, the GID
// table, trust/PFC/ETS (mlnx_qos or iproute2 dcb), link pause, DCQCN, the RoCE ToS,
// counters and the LLDP neighbours lldpd has learned. Parsers are pure functions of command output; Collect sends only the commands of
// the published allowlist (notes/linux-commands.md) and never writes anything on the host.
package linux
