package perftest

import (
	"strings"
	"testing"
)

// Header and row shapes from perftest src/perftest_parameters.h (RESULT_FMT*, REPORT_FMT*).
const (
	hdrGb      = " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n"
	hdrMB      = " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n"
	hdrMiB     = " #bytes     #iterations    BW peak[MiB/sec]    BW average[MiB/sec]   MsgRate[Mpps]\n"
	hdrQoSGb   = " #bytes    #sl      #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n"
	hdrPerPort = " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]   BW Port1[Gb/sec]   MsgRate Port1[Mpps]   BW Port2[Gb/sec]   MsgRate Port2[Mpps]\n"
	hdrCPU     = " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]    CPU_Util[%]\n"
	dashes     = "---------------------------------------------------------------------------------------\n"
)

func TestParseBWFixtures(t *testing.T) {
	tests := []struct {
		file            string
		device, link    string
		gid, mtu        int
		rdmacm          bool
		rows            []BWRow
		peak, avg, rate float64
	}{
		{"hostsmd/bw_server_rxe.txt", "rxe0", "Ethernet", 1, 1024, false,
			[]BWRow{{3000, -1, 5, 0.084385, 0.084385, 0.003516}}, 0.084385, 0.084385, 0.003516},
		{"hostsmd/bw_client_cx6dx_sweep.txt", "mlx5_0", "Ethernet", 2, 1024, false,
			[]BWRow{
				{2, -1, 5000, 0.073998, 0.072574, 4.535869},
				{4, -1, 5000, 0.15, 0.15, 4.616910},
				{65536, -1, 5000, 88.08, 88.08, 0.167992},
				{8388608, -1, 5000, 83.78, 83.75, 0.001248},
			}, 83.78, 83.75, 0.001248},
		{"hostsmd/bw_server_rdmacm.txt", "", "", -1, 0, true,
			[]BWRow{{65536, -1, 5000, 10.46, 10.42, 0.019882}}, 10.46, 10.42, 0.019882},
		{"issues/bw_client_duration_issue273.txt", "ib0", "Ethernet", 2, 4096, false,
			[]BWRow{{8, -1, 224958464, 0, 0.48, 7.498617}}, 0, 0.48, 7.498617},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			got, err := ParseBW(readFixture(t, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if got.Device != tc.device || got.LinkType != tc.link || got.GIDIndex != tc.gid || got.MTU != tc.mtu || got.RDMACM != tc.rdmacm || got.Unit != "Gb/sec" {
				t.Errorf("header = %q %q gid %d mtu %d rdma_cm %v unit %q", got.Device, got.LinkType, got.GIDIndex, got.MTU, got.RDMACM, got.Unit)
			}
			checkRows(t, got.Rows, tc.rows)
			if !near(got.PeakGbps, tc.peak) || !near(got.AvgGbps, tc.avg) || !near(got.MsgRateMpps, tc.rate) {
				t.Errorf("summary = %v/%v/%v, want %v/%v/%v", got.PeakGbps, got.AvgGbps, got.MsgRateMpps, tc.peak, tc.avg, tc.rate)
			}
		})
	}
}

func checkRows(t *testing.T, got, want []BWRow) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("rows = %+v, want %+v", got, want)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Bytes != w.Bytes || g.SL != w.SL || g.Iterations != w.Iterations ||
			!near(g.PeakGbps, w.PeakGbps) || !near(g.AvgGbps, w.AvgGbps) || !near(g.MsgRateMpps, w.MsgRateMpps) {
			t.Errorf("row %d = %+v, want %+v", i, g, w)
		}
	}
}

func TestParseBWVariants(t *testing.T) {
	const mib = 1048576 * 8 / 1e9
	tests := []struct {
		name string
		in   string
		unit string
		rows []BWRow
	}{
		{"MB/sec converted (MiB/s before commit 1d202bb)", hdrMB + " 65536      664644           0.00               11728.47\t\t   0.187656\n" + dashes,
			"MB/sec", []BWRow{{65536, -1, 664644, 0, 11728.47 * mib, 0.187656}}},
		{"MiB/sec converted", hdrMiB + " 65536      5000             11002.06            10996.62\t\t   0.175946\n" + dashes,
			"MiB/sec", []BWRow{{65536, -1, 5000, 11002.06 * mib, 10996.62 * mib, 0.175946}}},
		{"duration-mode row of perftest PR #342, warning above", " WARNING: BW peak won't be measured in this run.\n" + dashes + hdrGb +
			" 65536      403504           0.00               42.31                0.080701\n" + dashes,
			"Gb/sec", []BWRow{{65536, -1, 403504, 0, 42.31, 0.080701}}},
		{"#sl column (REPORT_FMT_QOS ends with its own newline)", hdrQoSGb + " 65536      3           5000           92.51              92.49                  0.176420\n\n" + dashes,
			"Gb/sec", []BWRow{{65536, 3, 5000, 92.51, 92.49, 0.176420}}},
		{"per-port columns keep the totals", hdrPerPort + " 65536      5000           180.20             180.11\t\t   0.343521        90.05              0.171760              90.06              0.171761\n" + dashes,
			"Gb/sec", []BWRow{{65536, -1, 5000, 180.20, 180.11, 0.343521}}},
		{"CPU_Util column", hdrCPU + " 65536      894133           0.00               97.65\t\t   0.186253\t    2.63\n" + dashes,
			"Gb/sec", []BWRow{{65536, -1, 894133, 0, 97.65, 0.186253}}},
		{"warning between header and row, CRLF", strings.ReplaceAll(hdrGb+"Conflicting CPU frequency values detected: 1200.000000 != 3400.000000. CPU Frequency is not max.\n 65536      5000             97.80              97.79\t\t   0.186520\n"+dashes, "\n", "\r\n"),
			"Gb/sec", []BWRow{{65536, -1, 5000, 97.80, 97.79, 0.186520}}},
		{"rows after the closing dashes are not rows", hdrGb + " 65536      5000             97.80              97.79\t\t   0.186520\n" + dashes + " 4096 5000 1.00 1.00 0.1\n",
			"Gb/sec", []BWRow{{65536, -1, 5000, 97.80, 97.79, 0.186520}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseBW(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if got.Unit != tc.unit {
				t.Errorf("unit = %q, want %q", got.Unit, tc.unit)
			}
			if got.GIDIndex != -1 {
				t.Errorf("GIDIndex = %d without a GID line, want -1", got.GIDIndex)
			}
			checkRows(t, got.Rows, tc.rows)
			last := tc.rows[len(tc.rows)-1]
			if !near(got.AvgGbps, last.AvgGbps) || !near(got.PeakGbps, last.PeakGbps) {
				t.Errorf("summary %v/%v, want the last row's", got.PeakGbps, got.AvgGbps)
			}
		})
	}
}

func TestParseBWErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", "no bandwidth table"},
		{"captured: no device", readFixture(t, "real/bw_R_client.txt"), "no bandwidth table"},
		{"captured: bad GID argument", readFixture(t, "real/bw_client.txt"), "no bandwidth table"},
		{"server still waiting", readFixture(t, "hostsmd/bw_server_waiting.txt"), "no bandwidth table"},
		{"latency table is not a bandwidth table", readFixture(t, "hostsmd/lat_rxe.txt"), "no bandwidth table"},
		{"header, no row", hdrGb + dashes, "no result row"},
		{"nan row", hdrGb + " 65536      0           -nan               -nan\t\t   -nan\n" + dashes, "no result row"},
		{"row with a missing column", hdrGb + " 65536      5000             97.80              97.79\n" + dashes, "no result row"},
		{"exponent is not perftest's %lf", hdrGb + " 65536      5000             1e3              97.79\t\t   0.1\n" + dashes, "no result row"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseBW(tc.in)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("ParseBW = %+v, %v; want error containing %q", got, err, tc.want)
			}
		})
	}
}
