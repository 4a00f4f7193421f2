package rdmaemu

import (
	"fmt"
	"net/netip"
	"strings"
)

// Output formats of perftest (src/perftest_parameters.[ch], src/write_bw.c, src/write_lat.c,
// src/perftest_communication.c). The TABs are perftest's own.
const (
	resultLine   = "---------------------------------------------------------------------------------------\n"
	noPeakLine   = " WARNING: BW peak won't be measured in this run.\n"
	waitBanner   = "\n************************************\n* Waiting for client to connect... *\n************************************\n"
	resultFmtG   = " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n"
	resultFmtMB  = " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n"
	resultFmtLat = " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] \n"
	reportFmt    = " %-7d    %-10d       %-7.2f            %-7.2f\t\t   %-7.6f\n"
	reportFmtLat = " %-7d %d          %-7.2f        %-7.2f      %-7.2f  \t       %-7.2f     \t%-7.2f\t\t%-7.2f \t\t%-7.2f\n"

	// Failure texts: perftest_communication.c, perftest_resources.c, write_bw.c, write_lat.c;
	// the completion error in the format of perftest before 2025-07 (" Failed status %d: wr_id %d syndrom 0x%x").
	connectFail   = "Couldn't connect to %s:%d\n Unable to init the socket connection\n"
	listenFail    = "Couldn't listen to port %d\n Unable to init the socket connection\n"
	rtrFail       = "Failed to modify QP %d to RTR\n Unable to Connect the HCA's through the link\n"
	gidTypesFail  = "\n Found Incompatibility issue with GID types.\n Please Try to use a different IP version.\n\n"
	completionErr = " Completion with error at client\n Failed status 12: wr_id 0 syndrom 0x81\nscnt=%d, ccnt=0\n"
	bwRunFail     = " Failed to complete run_iter_bw function successfully\n"
	latRunFail    = "Test exited with Error\n"
	exchangeFail  = " Failed to exchange data between server and clients\n"
)

// mibPerGb converts Gb/s to perftest's MB/sec (which is MiB/s).
const mibPerGb = 1e9 / 8 / (1 << 20)

// startText is what perftest prints before it looks at the device: the duration-mode warning
// of a bandwidth test.
func startText(a perfArgs) string {
	if !a.lat && a.duration > 0 {
		return noPeakLine
	}
	return ""
}

// testInfo is ctx_print_test_info for a verbs (non rdma_cm) RoCE run.
func testInfo(a perfArgs, server bool, mtu int) string {
	var b strings.Builder
	b.WriteString(resultLine)
	if a.lat {
		b.WriteString("                    RDMA_Write Latency Test\n")
	} else {
		b.WriteString("                    RDMA_Write BW Test\n")
	}
	fmt.Fprintf(&b, " Dual-port       : OFF\t\tDevice         : %s\n", a.device)
	b.WriteString(" Number of qps   : 1\t\tTransport type : IB\n")
	b.WriteString(" Connection type : RC\t\tUsing SRQ      : OFF\n")
	if a.lat {
		b.WriteString(" PCIe relax order: OFF\n ibv_wr* API     : ON\n TX depth        : 1\n")
	} else {
		b.WriteString(" PCIe relax order: ON\n ibv_wr* API     : ON\n")
		if !server {
			fmt.Fprintf(&b, " TX depth        : %d\n", defTXDepthBW)
		}
		cqMod := 100 // DEF_CQ_MOD, at most the iterations; duration mode signals every completion
		if a.duration > 0 {
			cqMod = 1
		} else if a.iters < cqMod {
			cqMod = a.iters
		}
		fmt.Fprintf(&b, " CQ Moderation   : %d\n", cqMod)
	}
	fmt.Fprintf(&b, " Mtu             : %d[B]\n", mtu)
	b.WriteString(" Link type       : Ethernet\n")
	if a.gidIndex >= 0 {
		fmt.Fprintf(&b, " GID index       : %d\n", a.gidIndex)
	}
	inline := 0
	if a.lat && a.size <= 220 { // DEF_INLINE_WRITE
		inline = 220
	}
	fmt.Fprintf(&b, " Max inline data : %d[B]\n", inline)
	b.WriteString(" rdma_cm QPs\t : OFF\n")
	b.WriteString(" Data ex. method : Ethernet\n")
	b.WriteString(resultLine)
	return b.String()
}

// addresses is ctx_print_pingpong_data for the local then the remote QP.
func addresses(local qp, localGID netip.Addr, remote qp, remoteGID netip.Addr) string {
	line := func(who string, q qp, gid netip.Addr) string {
		return fmt.Sprintf(" %s address: LID 0000 QPN 0x%04x PSN 0x%06x RKey 0x%06x VAddr 0x%014x\n GID: %s\n",
			who, q.qpn, q.psn, q.rkey, q.vaddr, gidDecimal(gid))
	}
	return line("local", local, localGID) + line("remote", remote, remoteGID)
}

// gidDecimal prints a GID as perftest does: 16 bytes in decimal, %02d, colon-separated.
func gidDecimal(a netip.Addr) string {
	b := a.As16()
	parts := make([]string, len(b))
	for i, v := range b {
		parts[i] = fmt.Sprintf("%02d", v)
	}
	return strings.Join(parts, ":")
}

// tableHeader is the result table's head, printed before the run starts.
func tableHeader(a perfArgs) string {
	if a.lat {
		return resultLine + resultFmtLat
	}
	if a.reportGbits {
		return resultLine + resultFmtG
	}
	return resultLine + resultFmtMB
}

// bwRow is one result row: peak (0.00 in duration mode), average and message rate.
func bwRow(a perfArgs, iters uint64, peakGbps, avgGbps, mpps float64) string {
	if !a.reportGbits {
		peakGbps, avgGbps = peakGbps*mibPerGb, avgGbps*mibPerGb
	}
	return fmt.Sprintf(reportFmt, a.size, iters, peakGbps, avgGbps, mpps)
}

// latRow is the latency result row and the closing line.
func latRow(a perfArgs, l latencyUS) string {
	return fmt.Sprintf(reportFmtLat, a.size, a.iters, l.min, l.max, l.typical, l.avg, l.stdev, l.p99, l.p999) + resultLine
}

// ssListen is one `ss -Htln` line of a perftest server (listen backlog 1, all IPv4 addresses).
func ssListen(port int) string {
	return fmt.Sprintf("%-6s %-6d %-6d %s %s\n", "LISTEN", 0, 1, fmt.Sprintf("0.0.0.0:%d", port), "0.0.0.0:*")
}

// timeoutNotFound is GNU coreutils timeout failing to exec its command (exit 127), as
// captured in fixtures/perftest/local/timeout_not_installed_C.stderr.
func timeoutNotFound(prog string) string {
	return "timeout: failed to run command '" + prog + "': No such file or directory\n"
}
