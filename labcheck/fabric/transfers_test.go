package fabriccheck

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/roceaudit/roceaudit/collectors/perftest"
	"github.com/roceaudit/roceaudit/lab"
	"github.com/roceaudit/roceaudit/lab/labtest"
	"github.com/roceaudit/roceaudit/lab/linuxhost"
	"github.com/roceaudit/roceaudit/lab/switchstate"
	"golang.org/x/crypto/ssh"
)

// transferLab is a scenario's devices with the perftest emulation, without SSH.
type transferLab struct {
	hosts    map[string]*linuxhost.Host
	switches map[string]*switchstate.Switch
}

// newTransferLab builds opts' devices with perftest at a fast time scale; the test fails if a
// transfer is still running when it ends.
func newTransferLab(t *testing.T, opts lab.Options) *transferLab {
	t.Helper()
	devs, e, err := lab.Emulate(opts, 0.002)
	if err != nil {
		t.Fatal(err)
	}
	tl := &transferLab{hosts: map[string]*linuxhost.Host{}, switches: map[string]*switchstate.Switch{}}
	for _, d := range devs {
		if d.Host != nil {
			tl.hosts[d.Name] = d.Host
		}
		if d.Switch != nil {
			tl.switches[d.Name] = d.Switch
		}
	}
	t.Cleanup(func() {
		if r := e.Running(); len(r) > 0 {
			t.Errorf("still running: %q", r)
		}
	})
	return tl
}

// the auditor's command line for one side (collectors/perftest.ServerCommand/ClientCommand)
func bwCommand(t *testing.T, dev string, port int, serverIP string) string {
	t.Helper()
	p := perftest.Params{Test: perftest.TestWriteBW, Device: dev, GIDIndex: 3, TrafficClass: 106, TCPPort: port, ServerIP: serverIP}.WithDefaults()
	cmd, err := perftest.ServerCommand(p)
	if serverIP != "" {
		cmd, err = perftest.ClientCommand(p)
	}
	if err != nil {
		t.Fatal(err)
	}
	return cmd
}

// run does one transfer from client (host, RDMA device) to server, with the server's IP.
func (tl *transferLab) run(t *testing.T, client, cdev, server, sdev, ip string, port int) (cout, cerr string, cexit int) {
	t.Helper()
	ctx := context.Background()
	type res struct {
		out, err string
		exit     int
	}
	done := make(chan res, 1)
	srvCmd := bwCommand(t, sdev, port, "")
	go func() {
		o, e, x := tl.hosts[server].Exec(ctx, srvCmd)
		done <- res{o, e, x}
	}()
	for i := 0; ; i++ {
		out, _, _ := tl.hosts[server].Exec(ctx, perftest.FreePortCommand(port))
		if inUse, err := perftest.ParsePortInUse(out); err == nil && inUse {
			break
		}
		if i > 2000 {
			t.Fatal("server never listened")
		}
		time.Sleep(time.Millisecond)
	}
	cout, cerr, cexit = tl.hosts[client].Exec(ctx, bwCommand(t, cdev, port, ip))
	if r := <-done; r.exit != cexit {
		t.Errorf("server exit %d, client exit %d: %s", r.exit, cexit, r.err)
	}
	return cout, cerr, cexit
}

func (tl *transferLab) switchCounters() map[string]int64 {
	out := map[string]int64{}
	for name, sw := range tl.switches {
		sw.Read(func(sw *switchstate.Switch) {
			for _, p := range sw.Ports {
				for k, v := range p.Counters {
					out[name+":"+p.Name+" "+k] = v
				}
			}
		})
	}
	return out
}

func (tl *transferLab) hwCounter(host, netdev, name string) uint64 {
	var v uint64
	tl.hosts[host].Read(func(h *linuxhost.Host) {
		_, p := h.Port(netdev)
		v = p.Counters[name]
	})
	return v
}

// The demo paths of the healthy lab run at line rate with the auditor's own command lines.
func TestTransfersHealthy(t *testing.T) {
	tl := newTransferLab(t, lab.Options{Scenario: lab.ScenarioHealthy})
	for i, p := range lab.Paths(lab.ScenarioHealthy) {
		from, to := strings.Split(p[0], ":"), strings.Split(p[1], ":")
		dev, ip := "mlx5_0", "10.1.0."
		if to[1] == linuxhost.Port1 {
			dev, ip = "mlx5_1", "10.2.0."
		}
		ip += strings.TrimPrefix(to[0], "gpu0")
		out, errText, exit := tl.run(t, from[0], dev, to[0], dev, ip, 18515+i)
		res, err := perftest.ParseBW(out)
		if exit != 0 || err != nil || res.AvgGbps < 96 || res.AvgGbps > 97 {
			t.Errorf("%v: exit %d %v %+v %s", p, exit, err, res, errText)
		}
	}
}

// Broken: gpu01 -> gpu04 crosses leaf1:Ethernet12 without PFC. Low bandwidth, queue-3 drops on
// that port and nowhere else, out-of-sequence on the receiver; gpu03 has no perftest.
func TestTransfersBroken(t *testing.T) {
	tl := newTransferLab(t, lab.Options{Scenario: lab.ScenarioBroken})
	before := tl.switchCounters()
	oos := tl.hwCounter("gpu04", linuxhost.Port0, "out_of_sequence")
	out, errText, exit := tl.run(t, "gpu01", "mlx5_0", "gpu04", "mlx5_0", "10.1.0.4", 18515)
	res, err := perftest.ParseBW(out)
	if exit != 0 || err != nil || res.AvgGbps < 15 || res.AvgGbps > 25 {
		t.Fatalf("exit %d %v %+v %s", exit, err, res, errText)
	}
	var drops []string
	for k, v := range tl.switchCounters() {
		if (strings.Contains(k, "drop") || strings.Contains(k, "discard")) && v > before[k] {
			drops = append(drops, fmt.Sprintf("%s +%d", k, v-before[k]))
		}
	}
	sort.Strings(drops)
	if len(drops) != 2 || !strings.HasPrefix(drops[0], "leaf1:Ethernet12 queue3_drop_bytes +") ||
		!strings.HasPrefix(drops[1], "leaf1:Ethernet12 queue3_drops +") {
		t.Errorf("drops %q, want queue 3 of leaf1:Ethernet12 only", drops)
	}
	if tl.hwCounter("gpu04", linuxhost.Port0, "out_of_sequence") <= oos {
		t.Error("gpu04 out_of_sequence did not rise")
	}

	// The client on gpu03 cannot run perftest; its server (gpu07) is then cancelled.
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	srvCmd := bwCommand(t, "mlx5_1", 18516, "")
	go func() { _, _, x := tl.hosts["gpu07"].Exec(ctx, srvCmd); done <- x }()
	o, e, x := tl.hosts["gpu03"].Exec(context.Background(), bwCommand(t, "mlx5_1", 18516, "10.2.0.7"))
	if !errors.Is(perftest.Diagnose(o, e, x), perftest.ErrNotInstalled) {
		t.Errorf("gpu03: %q %q %d", o, e, x)
	}
	cancel()
	<-done

	// gpu05:ens1f0np0 trusts PCP: RoCE lands on priority 0, which has no PFC on its NIC.
	out, _, _ = tl.run(t, "gpu01", "mlx5_0", "gpu05", "mlx5_0", "10.1.0.5", 18517)
	if res, err := perftest.ParseBW(out); err != nil || res.AvgGbps > 25 {
		t.Errorf("gpu01 -> gpu05 (receiver trusts PCP): %v %+v", err, res)
	}
	var d uint64
	tl.hosts["gpu05"].Read(func(h *linuxhost.Host) { d = h.Netdev(linuxhost.Port0).Eth.Stats["rx_prio0_discards"] })
	if d < 1000 {
		t.Errorf("gpu05 rx_prio0_discards %d", d)
	}
}

// One transfer over real SSH through lab.Start: the server's session waits, ss shows it, the
// client's output parses; a server whose session is closed leaves nothing running.
func TestTransferOverSSH(t *testing.T) {
	l, err := lab.Start(context.Background(), lab.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	srv, err := dial(t, l, "gpu05")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	cli, err := dial(t, l, "gpu01")
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()

	type res struct {
		out, err string
		exit     int
	}
	done := make(chan res, 1)
	srvCmd := bwCommand(t, "mlx5_0", 18515, "")
	go func() {
		o, e, x := labtest.RunSSH(t, srv, srvCmd)
		done <- res{o, e, x}
	}()
	for i := 0; ; i++ {
		out, _, _ := labtest.RunSSH(t, srv, perftest.FreePortCommand(18515))
		if inUse, err := perftest.ParsePortInUse(out); err == nil && inUse {
			break
		}
		if i > 200 {
			t.Fatal("server never listened")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if r := l.RunningPerftest(); !slices.Equal(r, []string{"gpu05 ib_write_bw server :18515"}) {
		t.Errorf("running %q", r)
	}
	start := time.Now()
	out, errText, exit := labtest.RunSSH(t, cli, bwCommand(t, "mlx5_0", 18515, "10.1.0.5"))
	if took := time.Since(start); took < 150*time.Millisecond || took > 2*time.Second {
		t.Errorf("a -D 10 run took %v of wall time, want about 200 ms", took)
	}
	bw, err := perftest.ParseBW(out)
	if exit != 0 || err != nil || bw.AvgGbps < 96 || bw.GIDIndex != 3 {
		t.Errorf("client over SSH: exit %d %v %+v %s", exit, err, bw, errText)
	}
	if s := <-done; s.exit != 0 || !strings.Contains(s.out, "Waiting for client to connect") {
		t.Errorf("server over SSH: %+v", s)
	}

	// A waiting server whose SSH session closes stops at once.
	sess, err := srv.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.Start(bwCommand(t, "mlx5_0", 18516, "")); err != nil {
		t.Fatal(err)
	}
	for i := 0; len(l.RunningPerftest()) == 0; i++ {
		if i > 1000 {
			t.Fatal("server never started")
		}
		time.Sleep(time.Millisecond)
	}
	sess.Close()
	for i := 0; len(l.RunningPerftest()) > 0; i++ {
		if i > 1000 {
			t.Fatalf("still running a second after the session closed: %q", l.RunningPerftest())
		}
		time.Sleep(time.Millisecond)
	}
}

// dial connects to a device of a running lab the way the auditor does.
func dial(t *testing.T, l *lab.Lab, name string) (*ssh.Client, error) {
	t.Helper()
	i := slices.IndexFunc(l.Devices, func(d lab.Device) bool { return d.Name == name })
	if i < 0 {
		t.Fatalf("no device %s", name)
	}
	return labtest.Dial(t, l.IdentityPath, l.KnownHostsPath, l.Devices[i].Address, l.Devices[i].Port)
}
