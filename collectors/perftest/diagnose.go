package perftest

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// The kinds of perftest failure. Diagnose returns a *Failure that wraps exactly one of them,
// so callers test with errors.Is.
var (
	ErrNotInstalled = errors.New("perftest is not installed")
	ErrNoDevice     = errors.New("RDMA device not found")
	ErrPortDown     = errors.New("RDMA port not active")
	ErrBadGID       = errors.New("unusable GID index")
	ErrPortInUse    = errors.New("out-of-band TCP port in use")
	ErrConnect      = errors.New("cannot reach the perftest server")
	ErrPeerFailed   = errors.New("the other side of the test failed")
	ErrTransport    = errors.New("RDMA transport error")
	ErrUsage        = errors.New("perftest refused the command line")
	ErrTimeout      = errors.New("perftest timed out")
	ErrFailed       = errors.New("perftest failed")
)

// Failure is one diagnosed perftest failure.
type Failure struct {
	Kind     error  // one of the Err* values above
	Exit     int    // exit status of the command (timeout's 124, the shell's 127, perftest's own)
	Reason   string // what went wrong and what it means for the path
	Evidence string // the line of perftest's output that decided Kind; "" when the exit status did
	Tail     []string
	WCStatus int // for ErrTransport: the ibv_wc_status perftest reported, -1 if none
}

func (f *Failure) Error() string {
	msg := fmt.Sprintf("perftest: %v: %s (exit %d)", f.Kind, f.Reason, f.Exit)
	if f.Evidence != "" {
		return msg + fmt.Sprintf("; perftest said %q", f.Evidence)
	}
	if len(f.Tail) > 0 {
		return msg + fmt.Sprintf("; last lines: %q", strings.Join(f.Tail, " | "))
	}
	return msg + "; no output"
}

func (f *Failure) Unwrap() error { return f.Kind }

// tailLines is how many trailing lines a Failure keeps.
const tailLines = 3

// rule maps one of perftest's failure texts to a kind; reason explains the match.
type rule struct {
	kind   error
	re     *regexp.Regexp
	reason func(m []string) string
}

func fixed(s string) func([]string) string { return func([]string) string { return s } }

// failedStatusRe covers the three generations of perftest's completion error line
// (perftest git history: before 2025-07, commit 1b396b1, PR #342): "Failed status 12: wr_id", "Failed status 12: qp_num N wr_id",
// "Failed status-transport retry counter exceeded (12): wr_id".
var failedStatusRe = regexp.MustCompile(`Failed status(?:-(.+?) \((\d+)\)| (\d+)):(?: qp_num \d+)? wr_id \d+ syndrom (0x[0-9a-fA-F]+)`)

// rules, most specific first; the first rule that matches any output line wins.
var rules = []rule{
	{ErrNotInstalled, regexp.MustCompile(`failed to run command .(\S+?).: No such file or directory|(\S+): command not found`),
		func(m []string) string { return notInstalled(firstNonEmpty(m[1], m[2])) }},
	{ErrBadGID, regexp.MustCompile(`Gid index argument (\S*) should be uint8_t`),
		func(m []string) string {
			return fmt.Sprintf("the -x value %q is not a GID index (0..255); perftest took it as the GID index argument", m[1])
		}},
	{ErrBadGID, regexp.MustCompile(`Gid index should be between (\d+) and (\d+)`),
		func(m []string) string {
			return fmt.Sprintf("this perftest accepts GID indexes %s..%s only; pick a RoCE v2 entry in that range or upgrade perftest", m[1], m[2])
		}},
	{ErrNoDevice, regexp.MustCompile(`Did not detect devices|No IB devices found`),
		fixed("the host has no RDMA device at all (no RDMA NIC, or its driver — mlx5_ib, bnxt_re, irdma, rdma_rxe — is not loaded)")},
	{ErrNoDevice, regexp.MustCompile(`IB device (\S+) not found`),
		func(m []string) string { return fmt.Sprintf("the host has no RDMA device named %s", m[1]) }},
	{ErrNoDevice, regexp.MustCompile(`Unable to find the Infiniband/RoCE device`),
		fixed("perftest did not find the requested RDMA device")},
	{ErrPortDown, regexp.MustCompile(`Port number (\d+) state is (\S+)`),
		func(m []string) string {
			return fmt.Sprintf("RDMA port %s is %s, not Active (link down or cable/switch port problem)", m[1], m[2])
		}},
	{ErrPortInUse, regexp.MustCompile(`Couldn't listen to port (\d+)`),
		func(m []string) string {
			return fmt.Sprintf("another process already listens on TCP port %s; pick a free port (ss -Htln sport = :PORT)", m[1])
		}},
	{ErrTransport, failedStatusRe, transportReason},
	{ErrTransport, regexp.MustCompile(`Completion with error at (client|server)`),
		func(m []string) string { return "a work request completed with an error at the " + m[1] }},
	{ErrBadGID, regexp.MustCompile(`Failed to modify QP(?: \d+)? to (RTR|RTS)`),
		func(m []string) string {
			return fmt.Sprintf("the NIC refused to move the QP to %s: the GID index does not name a usable GID on this port (empty slot, RoCE v1, wrong netdev), or the peer's GID has no route or neighbour from here", m[1])
		}},
	{ErrBadGID, regexp.MustCompile(`Found Incompatibility issue with GID types`),
		fixed("the two sides use GIDs of different IP versions (IPv4-mapped on one side, IPv6 on the other); use the same family on both")},
	{ErrConnect, regexp.MustCompile(`Couldn't connect to (\S+)`),
		func(m []string) string {
			return fmt.Sprintf("no perftest server answered at %s over TCP (server not started or already gone, port filtered, or wrong address)", m[1])
		}},
	{ErrConnect, regexp.MustCompile(`Address family for hostname not supported|Problem in resolving basic address and port`),
		fixed("perftest could not use the server address for its TCP channel (an IPv6 literal on a perftest without IPv6 out-of-band support, or a name that does not resolve)")},
	{ErrConnect, regexp.MustCompile(`Received \d+ times ADDR_ERROR|Unable to perform rdma_client function|Unable to connect \(retries`),
		fixed("rdma_cm could not resolve the server's address to an RDMA device and route (the IP is not on an RDMA netdev, or ARP to it failed)")},
	{ErrPeerFailed, regexp.MustCompile(`Couldn't read remote address`),
		fixed("the other side closed the out-of-band connection before the QPs were connected; its own output names the cause")},
	{ErrUsage, regexp.MustCompile(`Invalid Command or flag|Invalid Command line|Parser function exited with Error|Duplicated argument|TOS only valid for rdma_cm`),
		fixed("an option this perftest does not accept (too old a release for --tclass?)")},
}

func transportReason(m []string) string {
	code, name := statusOf(m)
	return fmt.Sprintf("work completion status %d (%s): %s", code, name, wcStatusMeaning(code))
}

// statusOf reads the status number and name from a failedStatusRe match.
func statusOf(m []string) (int, string) {
	if m[2] != "" {
		code, _ := strconv.Atoi(m[2])
		return code, m[1]
	}
	code, _ := strconv.Atoi(m[3])
	return code, wcStatusName(code)
}

func notInstalled(cmd string) string {
	switch {
	case cmd == "":
		cmd = "the command"
	case cmd == "timeout":
		return "coreutils timeout is not on the host"
	}
	if strings.HasPrefix(cmd, "ib_") {
		return cmd + " is not on the host: install the perftest package (apt/dnf/zypper install perftest; MLNX_OFED and DOCA-OFED ship it too)"
	}
	return cmd + " is not on the host"
}

// Diagnose explains a perftest run that did not succeed: exit 0 is nil; otherwise a *Failure
// whose Kind comes from perftest's own texts (either stream), then from the exit status
// (124: coreutils timeout fired; 127: command not found), else ErrFailed with the last lines.
func Diagnose(stdout, stderr string, exit int) error {
	if exit == 0 {
		return nil
	}
	lines := nonEmptyLines(stdout + "\n" + stderr)
	f := &Failure{Exit: exit, WCStatus: -1}
	if len(lines) > tailLines {
		f.Tail = lines[len(lines)-tailLines:]
	} else {
		f.Tail = lines
	}
	for _, r := range rules {
		for _, line := range lines {
			if m := r.re.FindStringSubmatch(line); m != nil {
				f.Kind, f.Reason, f.Evidence = r.kind, r.reason(m), line
				if r.re == failedStatusRe {
					f.WCStatus, _ = statusOf(m)
				}
				return f
			}
		}
	}
	switch {
	case exit == 127:
		f.Kind, f.Reason = ErrNotInstalled, notInstalled("ib_write_bw or ib_write_lat")
	case exit == 124:
		f.Kind, f.Reason = ErrTimeout, timeoutReason(stdout+stderr)
	case exit == 126:
		f.Kind, f.Reason = ErrFailed, "the command exists but cannot be executed (permissions)"
	case exit > 128 && exit < 128+65:
		f.Kind, f.Reason = ErrFailed, fmt.Sprintf("killed by signal %d", exit-128)
	default:
		f.Kind, f.Reason = ErrFailed, "unrecognized failure"
	}
	return f
}

func timeoutReason(out string) string {
	switch {
	case strings.Contains(out, "#bytes"): // the table header is printed when the run starts
		return "the run started but did not finish within the timeout"
	case strings.Contains(out, "Waiting for client"):
		return "the server never saw a client within the timeout (client not started, or it could not reach this server)"
	}
	return "the run did not finish within the timeout (a hung connection setup or a peer that went away)"
}

func nonEmptyLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
