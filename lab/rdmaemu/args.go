package rdmaemu

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/lab/loginshell"
)

// The perftest programs the emulation runs; other ib_* tools are "not installed".
const (
	progWriteBW  = "ib_write_bw"
	progWriteLat = "ib_write_lat"
)

// perftest's own defaults and limits (src/perftest_parameters.h).
const (
	defTCPPort   = 18515
	defSizeBW    = 65536
	defSizeLat   = 2
	defItersBW   = 5000
	defItersLat  = 1000
	maxGIDIndex  = 64 // MAX_GID_IX: " Gid index should be between 0 and 64"
	defTXDepthBW = 128
)

// invocation is one command line the emulation answers, after the optional "sudo -n ".
type invocation struct {
	kind    string // "perftest", "timeout-other" (timeout of a program that is not here), "ss"
	timeout int    // coreutils timeout seconds; 0 without the wrapper
	prog    string // ib_write_bw, ib_write_lat, or the program timeout could not run
	args    []string
	ssPort  int // ss -Htln sport = :P
	sudo    bool
}

// classify recognizes the command lines the emulation owns; ok is false for anything else,
// which the host then answers as "command not found".
func classify(cmd string) (invocation, bool) {
	line, fail := loginshell.Parse(cmd)
	argv := line.Argv
	if fail != nil || len(argv) == 0 {
		return invocation{}, false
	}
	if argv[0] == "ss" {
		// Only the published port check: ss -Htln sport = :P
		if len(argv) == 5 && argv[1] == "-Htln" && argv[2] == "sport" && argv[3] == "=" && strings.HasPrefix(argv[4], ":") {
			if p, err := strconv.Atoi(argv[4][1:]); err == nil && p >= 0 && p <= 65535 {
				return invocation{kind: "ss", ssPort: p, sudo: line.Sudo}, true
			}
		}
		return invocation{}, false
	}
	inv := invocation{kind: "perftest", sudo: line.Sudo}
	if argv[0] == "timeout" {
		if len(argv) < 3 {
			return invocation{}, false
		}
		n, err := strconv.Atoi(argv[1])
		if err != nil || n <= 0 {
			return invocation{}, false
		}
		inv.timeout, argv = n, argv[2:]
	}
	inv.prog, inv.args = argv[0], argv[1:]
	if inv.prog != progWriteBW && inv.prog != progWriteLat {
		if inv.timeout == 0 {
			return invocation{}, false
		}
		inv.kind = "timeout-other"
	}
	return inv, true
}

// perfArgs are the perftest options the emulation understands (perftest_parameters.c names).
type perfArgs struct {
	lat         bool // ib_write_lat
	device      string
	ibPort      int
	gidIndex    int // -1: not given
	tclass      int // -1: not given
	duration    int // seconds; 0: iteration mode
	iters       int
	tcpPort     int
	size        int
	reportGbits bool
	flowLabel   uint32 // --flow_label: the GRH flow label of the QP; 0 is none
	server      string // the client's last argument; "" on the server
}

// parseError is perftest's parser refusing the command line: stderr text, exit 1.
type parseError struct{ stderr string }

func (e *parseError) Error() string { return e.stderr }

const parserExit = " Parser function exited with Error\n"

// parsePerftest reads perftest's options the way its getopt parser does for the flags the
// auditor sends (and a few common ones). Values are checked like CHECK_VALUE does.
func parsePerftest(prog string, args []string) (perfArgs, error) {
	a := perfArgs{lat: prog == progWriteLat, ibPort: 1, gidIndex: -1, tclass: -1, tcpPort: defTCPPort,
		size: defSizeBW, iters: defItersBW}
	if a.lat {
		a.size, a.iters = defSizeLat, defItersLat
	}
	invalid := &parseError{" Invalid Command or flag.\n Please check command line and run again.\n\n"}
	num := func(i int, name string, lo, hi int) (int, error) {
		if i+1 >= len(args) {
			return 0, invalid
		}
		v, err := strconv.Atoi(args[i+1])
		if err != nil || v < lo || v > hi {
			return 0, &parseError{fmt.Sprintf(" %s should be between %d and %d\n", name, lo, hi) + parserExit}
		}
		return v, nil
	}
	var err error
	for i := 0; i < len(args); i++ {
		if v, ok := strings.CutPrefix(args[i], "--flow_label="); ok {
			if a.flowLabel, err = flowLabel(v); err != nil {
				return a, err
			}
			continue
		}
		switch f := args[i]; f {
		case "-d", "--ib-dev":
			if i+1 >= len(args) {
				return a, invalid
			}
			a.device = args[i+1]
		case "-i", "--ib-port":
			a.ibPort, err = num(i, "IB Port", 1, 3)
		case "-x", "--gid-index":
			if i+1 >= len(args) {
				return a, invalid
			}
			v, convErr := strconv.Atoi(args[i+1])
			switch {
			case convErr != nil:
				err = &parseError{fmt.Sprintf(" Gid index argument %s should be uint8_t\n", args[i+1]) + parserExit}
			case v < 0 || v > maxGIDIndex:
				err = &parseError{fmt.Sprintf(" Gid index should be between 0 and %d\n", maxGIDIndex) + parserExit}
			}
			a.gidIndex = v
		case "--tclass":
			a.tclass, err = num(i, "Traffic class", 0, 255)
		case "-D", "--duration":
			a.duration, err = num(i, "Duration", 1, 1<<30)
		case "-n", "--iters":
			a.iters, err = num(i, "Iteration num", 5, 100000000)
		case "-p", "--port":
			a.tcpPort, err = num(i, "Port", 1, 65535)
		case "-s", "--size":
			a.size, err = num(i, "Size", 1, 1<<23)
		case "--flow_label":
			if i+1 >= len(args) {
				return a, invalid
			}
			a.flowLabel, err = flowLabel(args[i+1])
		case "-F", "--CPU-freq":
			continue
		case "--report_gbits":
			a.reportGbits = true
			continue
		default:
			if i == len(args)-1 && !strings.HasPrefix(f, "-") {
				a.server = f
				continue
			}
			return a, invalid
		}
		if err != nil {
			return a, err
		}
		i++ // the flag's value
	}
	return a, nil
}

// serverAddr is the client's server argument as an IPv4 address.
func (a perfArgs) serverAddr() (netip.Addr, bool) {
	ip, err := netip.ParseAddr(a.server)
	if err != nil || !ip.Is4() {
		return netip.Addr{}, false
	}
	return ip, true
}

// test names the program for messages and the registry.
func (a perfArgs) test() string {
	if a.lat {
		return progWriteLat
	}
	return progWriteBW
}

// flowLabel reads --flow_label's value as perftest does (strtol base 0 of each of a comma
// list, the QPs taking them round robin): the one QP the auditor runs takes the first. The
// GRH field is 20 bits.
func flowLabel(v string) (uint32, error) {
	first, _, _ := strings.Cut(v, ",")
	n, err := strconv.ParseInt(first, 0, 64)
	if err != nil || n < 0 {
		return 0, &parseError{" Invalid Command or flag.\n Please check command line and run again.\n\n"}
	}
	return uint32(n) & 0xFFFFF, nil
}
