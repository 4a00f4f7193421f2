package perftest

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

var allKinds = []error{ErrNotInstalled, ErrNoDevice, ErrPortDown, ErrBadGID, ErrPortInUse, ErrConnect,
	ErrPeerFailed, ErrTransport, ErrUsage, ErrTimeout, ErrFailed}

func TestDiagnose(t *testing.T) {
	tests := []struct {
		name           string
		stdout, stderr string
		exit           int
		kind           error
		wc             int
		reason         string // substring of Reason
		evidence       string // substring of Evidence ("" = none expected)
	}{
		// Captured: perftest 4.5 on a host without RDMA devices.
		{"real: no device", "", readFixture(t, "real/bw_R_client.txt"), 1, ErrNoDevice, -1, "no RDMA device at all", "Did not detect devices"},
		{"real: no device, on stdout", readFixture(t, "real/bw_R_client.txt"), "", 1, ErrNoDevice, -1, "no RDMA device", "Did not detect devices"},
		{"real: empty -x swallowed -F", "", readFixture(t, "real/bw_client.txt"), 1, ErrBadGID, -1, `"-F" is not a GID index`, "Gid index argument -F should be uint8_t"},
		{"real: -x -1 on perftest 4.5", "", readFixture(t, "real/bw_v1_client.txt"), 1, ErrBadGID, -1, "accepts GID indexes 0..64 only", "between 0 and 64"},
		// perftest's failure texts (fixtures/README.md, perftest).
		{"server not reachable", "", readFixture(t, "hostsmd/err_connect.txt"), 1, ErrConnect, -1, "at 192.168.77.2:18515", "Couldn't connect to"},
		{"QP to RTR refused", "", readFixture(t, "hostsmd/err_rtr.txt"), 1, ErrBadGID, -1, "to RTR", "Failed to modify QP 59 to RTR"},
		{"completion error (a) up to 2025-07", "", readFixture(t, "hostsmd/err_completion_a.txt"), 1, ErrTransport, 12, "status 12 (transport retry counter exceeded): the peer stopped acknowledging", "Failed status 12: wr_id 0"},
		{"completion error (b) with qp_num", "", readFixture(t, "hostsmd/err_completion_b.txt"), 1, ErrTransport, 12, "dropped on the path", "qp_num 264"},
		{"completion error (c) PR #342", "", readFixture(t, "hostsmd/err_completion_c.txt"), 1, ErrTransport, 12, "status 12 (transport retry counter exceeded)", "status-transport retry"},
		{"completion error, RNR (c)", "", " Completion with error at client\n Failed status-RNR retry counter exceeded (13): wr_id 0 syndrom 0x82\n scnt=128, ccnt=0\n", 1, ErrTransport, 13, "not posting receives", "(13)"},
		{"completion error, flushed (a)", "", " Completion with error at server\n Failed status 5: wr_id 0 syndrom 0xf9\n", 1, ErrTransport, 5, "Work Request Flushed Error", "status 5"},
		{"completion error without status line", "", " Completion with error at server\n rcnt=3\n", 1, ErrTransport, -1, "at the server", "Completion with error at server"},
		{"server waiting, killed by timeout", readFixture(t, "hostsmd/bw_server_waiting.txt"), "", 124, ErrTimeout, -1, "never saw a client", ""},
		{"timeout without output", "", "", 124, ErrTimeout, -1, "did not finish", ""},
		{"timeout mid-run", readFixture(t, "hostsmd/bw_server_rxe.txt")[:1200], "", 124, ErrTimeout, -1, "started but did not finish", ""},
		// perftest PR #129: IPv6 literal as the server on a perftest without IPv6 out-of-band.
		{"IPv6 server address", "", readFixture(t, "issues/err_ipv6_oob_pr129.txt"), 1, ErrConnect, -1, "IPv6 literal", "Address family"},
		// coreutils timeout 9.1 and bash, captured on this machine.
		{"not installed, timeout C locale", "", readFixture(t, "local/timeout_not_installed_C.stderr"), 127, ErrNotInstalled, -1, "ib_write_bw is not on the host: install the perftest package", "failed to run command"},
		{"not installed, timeout UTF-8 quotes", "", readFixture(t, "local/timeout_not_installed_utf8.stderr"), 127, ErrNotInstalled, -1, "ib_write_bw is not on the host: install the perftest package", "failed to run command"},
		{"not installed, bash", "", "bash: line 1: ib_write_lat: command not found\n", 127, ErrNotInstalled, -1, "ib_write_lat is not on the host: install the perftest package", "command not found"},
		{"timeout itself missing", "", "bash: line 1: timeout: command not found\n", 127, ErrNotInstalled, -1, "coreutils timeout", "timeout: command not found"},
		{"exit 127 without text", "", "", 127, ErrNotInstalled, -1, "perftest package", ""},
		// Format strings of perftest HEAD (src/perftest_parameters.c, perftest_communication.c).
		{"port down", "", " Port number 1 state is Down\n Couldn't set the link layer\n", 1, ErrPortDown, -1, "RDMA port 1 is Down", "state is Down"},
		{"TCP port busy", "", "Couldn't listen to port 18515\n Unable to open file descriptor for socket connection Unable to init the socket connection\n", 1, ErrPortInUse, -1, "TCP port 18515", "Couldn't listen to port 18515"},
		{"named device missing", "", "IB device mlx5_9 not found\n Unable to find the Infiniband/RoCE device\n", 1, ErrNoDevice, -1, "named mlx5_9", "mlx5_9"},
		{"GID families differ", "\n Found Incompatibility issue with GID types.\n Please Try to use a different IP version.\n", "", 1, ErrBadGID, -1, "different IP versions", "Incompatibility"},
		{"peer went away", "", "ethernet_read_keys: Couldn't read remote address\n Unable to read to socket/rdma_cm\n", 1, ErrPeerFailed, -1, "its own output", "Couldn't read remote address"},
		{"rdma_cm ADDR_ERROR", "", "Received 10 times ADDR_ERROR\n Unable to perform rdma_client function\n", 1, ErrConnect, -1, "rdma_cm could not resolve", "ADDR_ERROR"},
		{"unknown flag", "", " Invalid Command or flag.\n Please check command line and run again.\n\n", 1, ErrUsage, -1, "--tclass", "Invalid Command or flag"},
		{"unrecognized", "", "Couldn't allocate MR\n failed to create mr\n Failed to create MR\n Unable to create the needed resources\n", 1, ErrFailed, -1, "unrecognized", ""},
		{"killed", "", "", 137, ErrFailed, -1, "signal 9", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := Diagnose(tc.stdout, tc.stderr, tc.exit)
			var f *Failure
			if !errors.As(err, &f) {
				t.Fatalf("Diagnose = %v, want a *Failure", err)
			}
			for _, k := range allKinds {
				if errors.Is(err, k) != (k == tc.kind) {
					t.Errorf("errors.Is(err, %v) = %v; err = %v", k, errors.Is(err, k), err)
				}
			}
			if f.Exit != tc.exit || f.WCStatus != tc.wc {
				t.Errorf("exit %d wc %d, want %d %d", f.Exit, f.WCStatus, tc.exit, tc.wc)
			}
			if !strings.Contains(f.Reason, tc.reason) {
				t.Errorf("reason %q does not contain %q", f.Reason, tc.reason)
			}
			if (tc.evidence == "") != (f.Evidence == "") || !strings.Contains(f.Evidence, tc.evidence) {
				t.Errorf("evidence %q, want %q", f.Evidence, tc.evidence)
			}
			msg := err.Error()
			if !strings.Contains(msg, f.Reason) || !strings.Contains(msg, "exit "+strconv.Itoa(tc.exit)) {
				t.Errorf("message %q lacks the reason or the exit status", msg)
			}
		})
	}
}

func TestDiagnoseSuccessAndTail(t *testing.T) {
	// Exit 0 is success even when perftest printed a warning.
	if err := Diagnose(" WARNING: BW peak won't be measured in this run.\n"+readFixture(t, "hostsmd/bw_server_rxe.txt"), "", 0); err != nil {
		t.Fatalf("exit 0: %v", err)
	}
	// An unrecognized failure names its last lines, most recent last.
	err := Diagnose("line one\n", "a\nb\n\nc\nd\n", 3)
	var f *Failure
	if !errors.As(err, &f) || strings.Join(f.Tail, "|") != "b|c|d" {
		t.Fatalf("tail = %v (%v)", f, err)
	}
	if !strings.Contains(err.Error(), `"b | c | d"`) {
		t.Errorf("message %q does not quote the last lines", err)
	}
	if msg := Diagnose("", "", 1).Error(); !strings.Contains(msg, "no output") {
		t.Errorf("empty failure message %q", msg)
	}
}
