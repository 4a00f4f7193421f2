package nxoscheck

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/checks"
	nxoscol "github.com/roceaudit/roceaudit/collectors/nxos"
	"github.com/roceaudit/roceaudit/lab/linuxhost"
	"github.com/roceaudit/roceaudit/lab/nxos"
	"github.com/roceaudit/roceaudit/lab/rdmaemu"
	"github.com/roceaudit/roceaudit/lab/switchstate"
	"github.com/roceaudit/roceaudit/labcheck"
	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// noJSONQueuing is an NX-OS switch whose CLI does not take `| json` after `show queuing
// interface`: it answers as the switch answers any command it does not know.
type noJSONQueuing struct{ *nxos.Switch }

func (s noJSONQueuing) Exec(ctx context.Context, cmd string) (string, string, int) {
	if cmd == nxoscol.CmdQueuingJSON {
		cmd = "show queuing interface | jsonx"
	}
	return s.Switch.Exec(ctx, cmd)
}

// The queue counters read the same from the JSON and, when `| json` is refused, from the text.
func TestQueueCountersJSONAndText(t *testing.T) {
	sw := nxos.Leaf4()
	p := sw.Port("Ethernet1/2")
	p.Counters = map[string]int64{"queue3_tx_packets": 90331877, "queue3_tx_bytes": 91054132016, "queue3_drops": 18204,
		"queue3_drop_bytes": 18785528, "queue3_ecn_marked_packets": 2210, "queue3_watchdog_drops": 12, "queue6_tx_packets": 1702}
	fromJSON := collect(t, sw)
	if d := cmp.Diff(expectedCounters(p), fromJSON.Port("Ethernet1/2").Counters.Value); d != "" {
		t.Errorf("JSON counters (-want +got):\n%s", d)
	}
	refused := noJSONQueuing{nxos.New(sw)}
	if _, stderr, exit := refused.Exec(t.Context(), nxoscol.CmdQueuingJSON); exit == 0 && stderr == "" {
		t.Fatal("the wrapper does not refuse the JSON form")
	}
	fromText := labcheck.Collect(t, nxoscol.Descriptor(), refused, sw)
	want := expectedCounters(p) // less ECN: the text form has no ECN row
	for q := 0; q < 8; q++ {
		delete(want, fmt.Sprintf("queue%d_ecn_marked_packets", q))
	}
	got := fromText.Port("Ethernet1/2").Counters
	if d := cmp.Diff(want, got.Value); d != "" {
		t.Errorf("text counters (-want +got):\n%s", d)
	}
	if got.Source.Command != nxoscol.CmdInterface+" + "+nxoscol.CmdQueuing {
		t.Errorf("text counters read from %q", got.Source.Command)
	}
	// Every other fact is the same whichever form answered.
	for _, name := range []string{"Ethernet1/1", "Ethernet1/2"} {
		a, b := *fromJSON.Port(name), *fromText.Port(name)
		a.Counters, b.Counters = topology.Fact[map[string]int64]{}, topology.Fact[map[string]int64]{}
		if d := cmp.Diff(a, b, labcheck.FactOpts(labcheck.IgnoreExcerpts)); d != "" {
			t.Errorf("%s facts differ between the JSON and the text reads (-json +text):\n%s", name, d)
		}
	}
}

// An NX-OS port without PFC toward the receiver drops RoCE in its queue 3 during a lab
// transfer; the collector reads the drops from `show queuing interface` and XFER-RETRANS
// names that hop and counter, as it does for SONiC.
func TestLossyNXOSHopIsNamed(t *testing.T) {
	gpu01, gpu02 := linuxhost.NewGPUHost("gpu01", 1), linuxhost.NewGPUHost("gpu02", 2)
	sw := &switchstate.Switch{Name: "leaf7", Platform: "nxos"}
	for _, name := range []string{"Ethernet1/1", "Ethernet1/2"} {
		sw.Ports = append(sw.Ports, switchstate.HealthyPort(name, 100, nxos.MTU))
	}
	lossy := sw.Port("Ethernet1/2")
	lossy.PFCRX, lossy.PFCTX = [8]bool{}, [8]bool{}
	ep := func(d, p string) rdmaemu.Endpoint { return rdmaemu.Endpoint{Device: d, Port: p} }
	e, err := rdmaemu.New(rdmaemu.Config{Hosts: []*linuxhost.Host{gpu01, gpu02}, Switches: []*switchstate.Switch{sw},
		Cables:    []rdmaemu.Cable{{ep("gpu01", linuxhost.Port0), ep("leaf7", "Ethernet1/1")}, {ep("gpu02", linuxhost.Port0), ep("leaf7", "Ethernet1/2")}},
		TimeScale: 0.01, SetupGrace: -1}) // timeout 25 fires after 250 ms: room for a loaded machine under -race
	if err != nil {
		t.Fatal(err)
	}
	e.Attach()

	before := collect(t, sw)
	bw := "timeout 25 ib_write_bw -d mlx5_0 -i 1 -x 3 --tclass 106 -F --report_gbits -D 10 -p 18515 -s 65536"
	done := make(chan int, 1)
	go func() { _, _, x := gpu02.Exec(context.Background(), bw); done <- x }()
	for i := 0; ; i++ {
		if out, _, _ := gpu02.Exec(context.Background(), "ss -Htln sport = :18515"); strings.Contains(out, "LISTEN") {
			break
		}
		if i > 2000 {
			t.Fatal("the server never listened")
		}
		time.Sleep(time.Millisecond)
	}
	if out, errText, x := gpu01.Exec(context.Background(), bw+" 10.1.0.2"); x != 0 {
		t.Fatalf("client exit %d: %s%s", x, out, errText)
	}
	<-done
	after := collect(t, sw)

	x := topology.Transfer{From: topology.Endpoint{Device: "gpu01", Interface: linuxhost.Port0},
		To: topology.Endpoint{Device: "gpu02", Interface: linuxhost.Port0}, Test: "write_bw", Ran: true, BandwidthGbps: 20, LinkGbps: 100}
	for _, name := range []string{"Ethernet1/1", "Ethernet1/2"} {
		d := map[string]int64{}
		for k, v := range after.Port(name).Counters.Value {
			if delta := v - before.Port(name).Counters.Value[k]; delta != 0 || topology.IsLossCounter(k) {
				d[k] = delta
			}
		}
		x.Hops = append(x.Hops, topology.HopCounters{Device: "leaf7", Role: topology.RoleSwitch, Interface: name, CounterDeltas: d})
	}
	if d := x.Hops[1].CounterDeltas["queue3_drops"]; d < 1000 {
		t.Errorf("Ethernet1/2 queue3_drops +%d, want thousands", d)
	}
	var r checks.Result
	for _, res := range checks.Run(&topology.Snapshot{Recipe: recipe.Default(), Transfers: []topology.Transfer{x}}, checks.Options{}) {
		if res.Check == "XFER-RETRANS" {
			r = res
		}
	}
	if r.Status != checks.Fail || !strings.Contains(r.Message, "leaf7 Ethernet1/2: ") || !strings.Contains(r.Message, "queue3_drops +") ||
		strings.Contains(r.Message, "Ethernet1/1:") || strings.Contains(r.Message, "expose no drop counter") {
		t.Errorf("XFER-RETRANS %s: %s", r.Status, r.Message)
	}
}
