package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/lab"
	"github.com/roceaudit/roceaudit/lab/linuxhost"
)

func result(t *testing.T, out, check string) checks.Result {
	t.Helper()
	results := decodeReport(t, out).Results
	for _, r := range results {
		if r.Check != check {
			continue
		}
		if r.Actual == "no transfer" {
			// Name why: a transfer that did not run under load is otherwise a bare skip.
			for _, run := range results {
				if run.Check == "XFER-RUN" {
					t.Logf("%s skipped: XFER-RUN %s %q: %s", check, run.Status, run.Actual, run.Message)
				}
			}
		}
		return r
	}
	t.Fatalf("no %s result", check)
	return checks.Result{}
}

func TestTransferHealthyPathUsesTheV2IndexAndPasses(t *testing.T) {
	l := startLab(t, "healthy")
	// Configure a RoCE v1 index for applications on gpu06: the transfer must not use it.
	l.Host("gpu06").Update(func(h *linuxhost.Host) { h.Files["/etc/nccl.conf"] = "NCCL_IB_GID_INDEX=2\n" })
	code, out, errs := run(t, "transfer", "-i", l.InventoryPath, "gpu06:ens1f0np0", "gpu01:ens1f0np0", "--latency", "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	rep := decodeReport(t, out)
	if len(rep.Transfers) != 1 {
		t.Fatalf("transfers %+v", rep.Transfers)
	}
	x := rep.Transfers[0]
	if x.GIDIndex["from"] != 3 || x.GIDIndex["to"] != 3 || x.BandwidthGbps < 90 || x.LinkGbps != 100 || x.SlowestLink == "" {
		t.Errorf("transfer %+v", x)
	}
	if x.LatencyUS == nil || x.LatencyUS.Typical <= 0 || x.LatencyUS.P99 < x.LatencyUS.Typical {
		t.Errorf("latency %+v", x.LatencyUS)
	}
	// Both hosts and every switch port of both equal-cost paths were sampled.
	var ports []string
	for _, h := range x.Hops {
		ports = append(ports, h.Device+":"+h.Interface)
	}
	for _, want := range []string{"gpu06:ens1f0np0", "leaf3:Ethernet2", "spine1:Ethernet1/3", "spine2:Ethernet8", "leaf1:Ethernet0", "gpu01:ens1f0np0"} {
		if !strings.Contains(strings.Join(ports, " "), want) {
			t.Errorf("%s not sampled: %v", want, ports)
		}
	}
	if got := keys(rep, checks.Fail, checks.Error, checks.Warn); len(got) != 0 {
		t.Errorf("findings %v", got)
	}
	if running := l.RunningPerftest(); len(running) != 0 {
		t.Errorf("left running: %v", running)
	}
}

func TestTransferLossyHopIsNamedWithItsCounters(t *testing.T) {
	l := startLab(t, "broken")
	code, out, errs := run(t, "transfer", "-i", l.InventoryPath, "gpu01:ens1f0np0", "gpu04:ens1f0np0", "--format", "json")
	if code != exitFailed {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rt := result(t, out, "XFER-RETRANS")
	if rt.Status != checks.Fail || rt.Device != "leaf1" || rt.Interface != "Ethernet12" ||
		!strings.Contains(rt.Actual, "leaf1 Ethernet12: queue3_drop_bytes +") || !strings.Contains(rt.Actual, "PFC pause frames received on priority 3: 0") {
		t.Errorf("XFER-RETRANS %+v", rt)
	}
	if bw := result(t, out, "XFER-BW"); bw.Status != checks.Fail || !strings.Contains(bw.Message, "leaf1 Ethernet12") {
		t.Errorf("XFER-BW %+v", bw)
	}
}

func TestTransferThatCannotRun(t *testing.T) {
	l := startLab(t, "broken")
	for _, c := range []struct{ from, to, want string }{
		{"gpu03:ens1f1np1", "gpu07:ens1f1np1", "perftest is not installed"},
		{"gpu02:ens1f0np0", "gpu05:ens1f0np0", "no RoCE v2 GID"}, // never falls back to a v1 index
		{"gpu01:ens1f0np0", "gpu09", "host key mismatch"},
	} {
		code, out, errs := run(t, "transfer", "-i", l.InventoryPath, c.from, c.to, "--format", "json")
		if code != exitIncomplete {
			t.Errorf("%s->%s: exit %d %s", c.from, c.to, code, errs)
			continue
		}
		if r := result(t, out, "XFER-RUN"); r.Status != checks.Error || !strings.Contains(r.Message, c.want) {
			t.Errorf("%s->%s: %+v", c.from, c.to, r)
		}
	}
	if running := l.RunningPerftest(); len(running) != 0 {
		t.Errorf("left running: %v", running)
	}
}

// Ctrl-C while the perftest server waits: the run ends and nothing is left on the hosts.
func TestCancelledTransferStopsTheServer(t *testing.T) {
	l, err := lab.Start(context.Background(), lab.Options{Scenario: "healthy", Dir: filepath.Join(t.TempDir(), "lab"), Latency: 40 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	var out, errb bytes.Buffer
	go func() {
		done <- Main(ctx, []string{"transfer", "-i", l.InventoryPath, "gpu01:ens1f0np0", "gpu05:ens1f0np0", "--duration", "60s"}, strings.NewReader(""), &out, &errb)
	}()
	deadline := time.Now().Add(30 * time.Second)
	for len(l.RunningPerftest()) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the perftest server never started")
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	select {
	case code := <-done:
		if code != exitInterrupted {
			t.Errorf("exit %d, want %d", code, exitInterrupted)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("transfer did not stop after cancel")
	}
	for i := 0; len(l.RunningPerftest()) > 0; i++ {
		if i > 200 {
			t.Fatalf("still running after cancel: %v", l.RunningPerftest())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A server behind a firewall that drops the setup channel: the client hangs until coreutils
// timeout ends it, the transfer reports a timeout, and nothing is left running.
func TestTransferTimeout(t *testing.T) {
	l := startLab(t, "healthy")
	l.Host("gpu05").Update(func(h *linuxhost.Host) { h.FirewallDrops = true })
	code, out, errs := run(t, "transfer", "-i", l.InventoryPath, "gpu01:ens1f0np0", "gpu05:ens1f0np0", "--duration", "1s", "--format", "json")
	if code != exitIncomplete {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if r := result(t, out, "XFER-RUN"); r.Status != checks.Error || !strings.Contains(r.Message, "timed out") {
		t.Errorf("XFER-RUN %+v", r)
	}
	if running := l.RunningPerftest(); len(running) != 0 {
		t.Errorf("left running: %v", running)
	}
}

// transfer keeps the user's --only and --skip: it narrows them to the transfer checks, never
// replaces them.
func TestTransferHonoursOnlyAndSkip(t *testing.T) {
	l := startLab(t, "broken")
	ids := func(out string) map[string]bool {
		m := map[string]bool{}
		for _, r := range decodeReport(t, out).Results {
			m[r.Check] = true
		}
		return m
	}
	_, out, errs := run(t, "transfer", "-i", l.InventoryPath, "gpu01:ens1f0np0", "gpu04:ens1f0np0", "--only", "XFER-BW", "--format", "json")
	if got := ids(out); !got["XFER-BW"] || got["XFER-RETRANS"] || got["XFER-RUN"] {
		t.Errorf("--only XFER-BW ran %v (%s)", got, errs)
	}
	_, out, errs = run(t, "transfer", "-i", l.InventoryPath, "gpu01:ens1f0np0", "gpu04:ens1f0np0", "--skip", "XFER-BW", "--format", "json")
	if got := ids(out); got["XFER-BW"] || !got["XFER-RETRANS"] || got["HOST-MTU"] {
		t.Errorf("--skip XFER-BW ran %v (%s)", got, errs)
	}
	if code, _, errs := run(t, "transfer", "-i", l.InventoryPath, "gpu01:ens1f0np0", "gpu04:ens1f0np0", "--only", "HOST-MTU"); code != exitUsage || !strings.Contains(errs, "no transfer check") {
		t.Errorf("--only HOST-MTU: exit %d, %s", code, errs)
	}
}
