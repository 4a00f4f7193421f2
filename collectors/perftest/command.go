package perftest

import (
	"fmt"
	"net"
	"strconv"
)

// The published command templates (placeholders of collectors/allowlist.go: {n} a number,
// {dev} an RDMA device, {port} an RDMA port, {ip} an IP literal). ServerCommand and
// ClientCommand produce exactly these shapes and nothing else; the order of the flags is fixed.
const (
	CmdServerBW  = "timeout {n} ib_write_bw -d {dev} -i {port} -x {n} --tclass {n} -F --report_gbits -D {n} -p {n} -s {n}"
	CmdClientBW  = CmdServerBW + " {ip}"
	CmdServerLat = "timeout {n} ib_write_lat -d {dev} -i {port} -x {n} --tclass {n} -F -n {n} -p {n} -s {n}"
	CmdClientLat = CmdServerLat + " {ip}"
	// With a GRH flow label (--flow_label, perftest_parameters.c; set on the QP's address
	// vector in ctx_modify_qp_to_rtr whenever a GID index is given, no rdma_cm needed): the
	// RoCE v2 UDP source port follows it (Linux rdma_flow_label_to_udp_sport), so stepping it
	// steps the flow over the switches' ECMP hash.
	CmdServerBWFlow  = CmdServerBW + " --flow_label {n}"
	CmdClientBWFlow  = CmdServerBWFlow + " {ip}"
	CmdServerLatFlow = CmdServerLat + " --flow_label {n}"
	CmdClientLatFlow = CmdServerLatFlow + " {ip}"
	// CmdPortInUse lists TCP listeners on one port; read-only, no root needed.
	CmdPortInUse = "ss -Htln sport = :{n}"
)

// Templates is every command this package can produce, for the host allowlist and `plan`.
func Templates() []string {
	return []string{CmdServerBW, CmdClientBW, CmdServerLat, CmdClientLat,
		CmdServerBWFlow, CmdClientBWFlow, CmdServerLatFlow, CmdClientLatFlow, CmdPortInUse}
}

// ServerCommand is the server side of the test, e.g.
//
//	timeout 25 ib_write_bw -d mlx5_0 -i 1 -x 3 --tclass 106 -F --report_gbits -D 10 -p 18515 -s 65536
//
// The whole run is bounded by coreutils timeout (Duration + TimeoutSlack) so nothing outlives
// the test if the SSH channel drops; a server that never sees a client exits 124. ServerIP is
// ignored.
func ServerCommand(p Params) (string, error) {
	if err := p.validate(false); err != nil {
		return "", fmt.Errorf("perftest server command: %w", err)
	}
	return p.command(), nil
}

// ClientCommand is the client side: the server's command plus the server's IPv4 address last.
func ClientCommand(p Params) (string, error) {
	if err := p.validate(true); err != nil {
		return "", fmt.Errorf("perftest client command: %w", err)
	}
	return p.command() + " " + net.ParseIP(p.ServerIP).To4().String(), nil
}

// command renders a validated Params in the template's flag order.
func (p Params) command() string {
	mode := "--report_gbits -D " + strconv.Itoa(int(p.Duration.Seconds()))
	if p.Test == TestWriteLat {
		mode = "-n " + strconv.Itoa(LatIterations)
	}
	cmd := fmt.Sprintf("timeout %d ib_%s -d %s -i %d -x %d --tclass %d -F %s -p %d -s %d",
		p.TimeoutSeconds(), p.Test, p.Device, p.Port, p.GIDIndex, p.TrafficClass, mode, p.TCPPort, p.Size)
	if p.FlowLabel > 0 {
		cmd += " --flow_label " + strconv.Itoa(p.FlowLabel)
	}
	return cmd
}

// FreePortCommand asks which TCP listeners hold port (`ss -Htln sport = :PORT`); read
// ParsePortInUse on its stdout when it exits 0. The port is not validated here: a value outside
// 1..65535 makes ss fail, and a negative one is refused by the allowlist.
func FreePortCommand(port int) string {
	return "ss -Htln sport = :" + strconv.Itoa(port)
}
