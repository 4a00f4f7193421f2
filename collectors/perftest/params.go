package perftest

import (
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/roceaudit/roceaudit/topology"
)

// The two tests a transfer runs.
const (
	TestWriteBW  = "write_bw"
	TestWriteLat = "write_lat"
)

// Defaults for the fields a caller usually leaves alone (see WithDefaults).
const (
	DefaultIBPort       = 1
	DefaultTCPPort      = 18515 // perftest's own default (DEF_PORT)
	DefaultDuration     = 10 * time.Second
	DefaultSizeBW       = 65536 // perftest's own DEF_SIZE_BW
	DefaultSizeLat      = 64
	DefaultTimeoutSlack = 15 * time.Second
)

// LatIterations is the fixed ping-pong count of the latency test. ib_write_lat runs in
// iteration mode (-n), not -D: in duration mode perftest prints only
// "#bytes #iterations t_avg[usec] tps average" (RESULT_FMT_LAT_DUR) — no typical latency and
// no percentiles, which are what the transfer report needs.
const LatIterations = 10000

// Validation bounds. Size stops at 512 KiB: bandwidth saturates long before, and every number
// must fit the allowlist's {n} placeholder (six digits).
const (
	minTCPPort  = 1024
	maxTCPPort  = 65535
	maxDuration = 300 * time.Second
	maxSlack    = 600 * time.Second
	maxSize     = 512 * 1024
	// MaxFlowLabel keeps every label's UDP source port distinct: the kernel folds the 20-bit
	// label to 14 bits (rdma_flow_label_to_udp_sport), which is the identity below 2^14.
	MaxFlowLabel = 1<<14 - 1
)

// ErrInvalidParams is wrapped by every validation error of ServerCommand and ClientCommand.
var ErrInvalidParams = errors.New("invalid perftest parameters")

// Params describe one side of one perftest run. Server and client of a pair use the same
// values; only the client has ServerIP.
type Params struct {
	Test         string        // TestWriteBW or TestWriteLat
	Device       string        // RDMA device, e.g. mlx5_0 (-d)
	Port         int           // RDMA port of the device, 1..255 (-i)
	GIDIndex     int           // the RoCE v2 GID to use, 0..255 (-x); choosing a v2 entry is the caller's job
	TrafficClass int           // GRH traffic class = the ToS byte, 0..255, e.g. 106 for DSCP 26 + ECT (--tclass)
	Duration     time.Duration // whole seconds, 1..300: -D for write_bw; for write_lat only the time budget in the timeout
	TCPPort      int           // out-of-band TCP port, 1024..65535 (-p)
	Size         int           // message size in bytes, 1..524288 (-s)
	ServerIP     string        // client only: IPv4 address of the server's out-of-band listener
	// FlowLabel is the GRH flow label of the QP (--flow_label), 1..MaxFlowLabel; 0 leaves it
	// out (mlx5 then derives the label, hence the UDP source port, from the QP numbers).
	FlowLabel int
	// TimeoutSlack is added to Duration to bound the whole run with coreutils timeout: setup,
	// the client's start after the server's, and teardown must fit in it (1s..600s). The
	// caller must start the client within the slack of starting the server.
	TimeoutSlack time.Duration
}

// WithDefaults fills the zero fields that have a safe default: Port, TCPPort, Duration, Size
// (by test) and TimeoutSlack. GIDIndex and TrafficClass are never defaulted: 0 is a valid value
// of both, and the wrong one makes the test meaningless.
func (p Params) WithDefaults() Params {
	if p.Port == 0 {
		p.Port = DefaultIBPort
	}
	if p.TCPPort == 0 {
		p.TCPPort = DefaultTCPPort
	}
	if p.Duration == 0 {
		p.Duration = DefaultDuration
	}
	if p.Size == 0 {
		p.Size = DefaultSizeBW
		if p.Test == TestWriteLat {
			p.Size = DefaultSizeLat
		}
	}
	if p.TimeoutSlack == 0 {
		p.TimeoutSlack = DefaultTimeoutSlack
	}
	return p
}

// validate checks every field a command line carries; client adds ServerIP.
func (p Params) validate(client bool) error {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	if p.Test != TestWriteBW && p.Test != TestWriteLat {
		bad("test %q is neither %q nor %q", p.Test, TestWriteBW, TestWriteLat)
	}
	if err := validDevice(p.Device); err != nil {
		bad("%v", err)
	}
	if p.Port < 1 || p.Port > 255 {
		bad("RDMA port %d is outside 1..255", p.Port)
	}
	if p.GIDIndex < 0 || p.GIDIndex > 255 {
		bad("GID index %d is outside 0..255", p.GIDIndex)
	}
	if p.TrafficClass < 0 || p.TrafficClass > 255 {
		bad("traffic class %d is outside 0..255", p.TrafficClass)
	}
	if p.Duration < time.Second || p.Duration > maxDuration || p.Duration%time.Second != 0 {
		bad("duration %v is not a whole number of seconds in 1s..%v", p.Duration, maxDuration)
	}
	if p.TCPPort < minTCPPort || p.TCPPort > maxTCPPort {
		bad("TCP port %d is outside %d..%d", p.TCPPort, minTCPPort, maxTCPPort)
	}
	if p.Size < 1 || p.Size > maxSize {
		bad("message size %d is outside 1..%d bytes", p.Size, maxSize)
	}
	if p.TimeoutSlack < time.Second || p.TimeoutSlack > maxSlack {
		bad("timeout slack %v is outside 1s..%v", p.TimeoutSlack, maxSlack)
	}
	if p.FlowLabel < 0 || p.FlowLabel > MaxFlowLabel {
		bad("flow label %d is outside 0..%d", p.FlowLabel, MaxFlowLabel)
	}
	if client {
		if err := validServerIP(p.ServerIP); err != nil {
			bad("%v", err)
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("%w: %s", ErrInvalidParams, strings.Join(problems, "; "))
	}
	return nil
}

// validDevice accepts what topology.ValidName accepts, minus ':', '@' and '/': RDMA device
// names (mlx5_0, rocep59s0f0, rxe0) never hold them and the allowlist's {dev} refuses them.
func validDevice(dev string) error {
	if err := topology.ValidName(dev); err != nil {
		return fmt.Errorf("RDMA device: %w", err)
	}
	if strings.ContainsAny(dev, ":@/") {
		return fmt.Errorf("RDMA device %q: only letters, digits and _ . - are allowed", dev)
	}
	return nil
}

// validServerIP accepts an IPv4 literal only (see the package comment for why not IPv6).
func validServerIP(s string) error {
	ip := net.ParseIP(s)
	switch {
	case s == "":
		return errors.New("the client needs the server's IP address")
	case ip == nil:
		return fmt.Errorf("server IP %q is not an IP address", s)
	case ip.To4() == nil:
		return fmt.Errorf("server IP %q is IPv6: perftest's out-of-band TCP channel needs an IPv4 address of the server (any reachable one; the RDMA path follows the GID index)", s)
	case strings.Contains(s, ":"):
		return fmt.Errorf("server IP %q: write the IPv4 address in dotted form", s) // ::ffff:a.b.c.d
	}
	return nil
}

// TimeoutSeconds is the bound given to coreutils timeout, rounded up to a whole second.
func (p Params) TimeoutSeconds() int {
	total := p.Duration + p.TimeoutSlack
	return int((total + time.Second - 1) / time.Second)
}
