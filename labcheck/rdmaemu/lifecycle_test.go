package rdmaemucheck

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roceaudit/roceaudit/collectors/perftest"
	"github.com/roceaudit/roceaudit/lab/linuxhost"
)

func contextWithCancel(t *testing.T) (context.Context, context.CancelFunc) {
	return context.WithCancel(t.Context())
}

// perftest not installed: coreutils timeout cannot run it (fixtures/perftest/local capture).
func TestNotInstalled(t *testing.T) {
	f := newTestFabric(t, fast, -1)
	f.hosts["gpu03"].Perftest = false
	want, err := os.ReadFile("../../fixtures/perftest/local/timeout_not_installed_C.stderr")
	if err != nil {
		t.Fatal(err)
	}
	r := f.exec(t.Context(), "gpu03", bwCmd("mlx5_0", 3, 18515, 10, ""))
	if r.out != "" || r.err != string(want) || r.exit != 127 || !errors.Is(perftest.Diagnose(r.out, r.err, r.exit), perftest.ErrNotInstalled) {
		t.Errorf("not installed: %+v", r)
	}
	if r := f.exec(t.Context(), "gpu03", "ib_write_lat -d mlx5_0"); r.exit != 127 || r.err != "bash: line 1: ib_write_lat: command not found\n" {
		t.Errorf("without timeout: %+v", r)
	}
	if r := f.exec(t.Context(), "gpu01", "timeout 5 ib_send_bw -d mlx5_0"); r.exit != 127 || r.err != "timeout: failed to run command 'ib_send_bw': No such file or directory\n" {
		t.Errorf("another perftest tool: %+v", r)
	}
	if r := f.exec(t.Context(), "gpu03", "ss -Htln sport = :18515"); r.exit != 0 || r.out != "" {
		t.Errorf("ss without perftest: %+v", r)
	}
}

// A server nobody connects to is killed by its emulated timeout: exit 124, no output, after
// N x TimeScale (+ SetupGrace).
func TestEmulatedTimeout(t *testing.T) {
	f := newTestFabric(t, 0.01, 20*time.Millisecond)
	start := time.Now()
	r := f.exec(t.Context(), "gpu03", "timeout 3 ib_write_bw -d mlx5_0 -i 1 -x 3 --tclass 106 -F --report_gbits -D 1 -p 18515 -s 65536")
	took := time.Since(start)
	if r.out != "" || r.err != "" || r.exit != 124 || !errors.Is(perftest.Diagnose(r.out, r.err, r.exit), perftest.ErrTimeout) {
		t.Errorf("timeout: %+v", r)
	}
	if took < 50*time.Millisecond || took > time.Second {
		t.Errorf("timeout 3 at scale 0.01 + 20ms grace took %v, want about 50ms", took)
	}
}

// A waiting server whose channel closes returns at once and leaves nothing behind; ss no
// longer lists it and a client then cannot connect.
func TestCancelWaitingServer(t *testing.T) {
	f := newTestFabric(t, fast, -1)
	ctx, cancel := contextWithCancel(t)
	done := f.startServer(t, ctx, "gpu03", bwCmd("mlx5_0", 3, 18515, 10, ""), 18515)
	if r := f.e.Running(); len(r) != 1 || !strings.Contains(r[0], "gpu03 ib_write_bw server :18515") {
		t.Errorf("running %q", r)
	}
	if r := f.exec(t.Context(), "gpu03", "ss -Htln sport = :18515"); r.out != "LISTEN 0      1      0.0.0.0:18515 0.0.0.0:*\n" {
		t.Errorf("ss %q", r.out)
	} else if inUse, err := perftest.ParsePortInUse(r.out); !inUse || err != nil {
		t.Errorf("ParsePortInUse: %v %v", inUse, err)
	}
	start := time.Now()
	cancel()
	select {
	case <-done:
	case <-time.After(time.Second):
		t.Fatal("cancelled server still running")
	}
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Errorf("cancel took %v", d)
	}
	if r := f.e.Running(); len(r) != 0 {
		t.Errorf("running after cancel: %q", r)
	}
	if r := f.exec(t.Context(), "gpu03", "ss -Htln sport = :18515"); r.out != "" {
		t.Errorf("ss after cancel %q", r.out)
	}
	r := f.exec(t.Context(), "gpu01", bwCmd("mlx5_0", 3, 18515, 10, "10.1.0.3"))
	if !errors.Is(perftest.Diagnose(r.out, r.err, r.exit), perftest.ErrConnect) {
		t.Errorf("client after the server left: %+v", r)
	}
}

// Killing either side mid-run: the client's cancel returns at once and the server reports the
// broken exchange; the server's cancel makes the client's writes fail. Counters only rise,
// and part-way through they are part-way.
func TestCancelMidRun(t *testing.T) {
	f := newTestFabric(t, 0.01, -1) // -D 100: one second
	counter := func() uint64 {
		var v uint64
		f.hosts["gpu01"].Read(func(h *linuxhost.Host) { v = h.Netdev(linuxhost.Port0).Eth.Stats["tx_prio3_packets"] })
		return v
	}
	base := counter()

	srv := f.startServer(t, t.Context(), "gpu03", bwCmd("mlx5_0", 3, 18515, 100, ""), 18515)
	cctx, cancelClient := contextWithCancel(t)
	var wg sync.WaitGroup
	var cli result
	wg.Add(1)
	go func() { defer wg.Done(); cli = f.exec(cctx, "gpu01", bwCmd("mlx5_0", 3, 18515, 100, "10.1.0.3")) }()
	var samples []uint64
	sampling := time.Now()
	for len(samples) < 10 {
		time.Sleep(20 * time.Millisecond)
		samples = append(samples, counter())
	}
	// Under load the ten 20 ms sleeps take longer: bound the growth by the time really spent.
	spent := time.Since(sampling)
	cancelClient()
	waitGroupDone(t, &wg, time.Second)
	s := <-srv
	if cli.exit != 129 || s.exit != 1 || s.err != " Failed to exchange data between server and clients\n" {
		t.Errorf("client %+v server %+v", cli, s)
	}
	for i, v := range samples {
		if i > 0 && v < samples[i-1] {
			t.Errorf("counter went down: %v", samples)
		}
	}
	limit := uint64(150_000_000 * max(1, spent.Seconds()/0.2))
	if last := samples[len(samples)-1]; last <= base || last-base > limit {
		t.Errorf("after %s of a 1 s run: %d -> %d (limit +%d)", spent, base, last, limit)
	}

	sctx, cancelServer := contextWithCancel(t)
	srv = f.startServer(t, sctx, "gpu03", bwCmd("mlx5_0", 3, 18516, 100, ""), 18516)
	wg.Add(1)
	go func() {
		defer wg.Done()
		cli = f.exec(t.Context(), "gpu01", bwCmd("mlx5_0", 3, 18516, 100, "10.1.0.3"))
	}()
	for len(f.e.Running()) < 2 {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(30 * time.Millisecond)
	cancelServer()
	waitGroupDone(t, &wg, time.Second)
	<-srv
	if !errors.Is(perftest.Diagnose(cli.out, cli.err, cli.exit), perftest.ErrTransport) {
		t.Errorf("client whose server died: %+v", cli)
	}
}
