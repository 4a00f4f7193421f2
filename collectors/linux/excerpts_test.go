package linux

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/collectors"
)

// The per-host cuts give every port the excerpts the whole outputs give it.
func TestExcerptCutsMatchWholeOutputs(t *testing.T) {
	for _, scenario := range []string{"ofed-lossless", "dual-port", "inbox-dcb", "no-systemd", "roce-lag", "ipv6-gids-no-rdma", "rail8"} {
		var r collectors.Runner
		if scenario == "rail8" {
			r = loadTranscript(t) // eight RDMA devices: the cuts' blocks and port lines interleave
		} else {
			r = newFakeRunner(scenario)
		}
		d := discover(context.Background(), newExecutor(r, false), nil)
		if len(d.ports) == 0 || len(d.netdevs) == 0 {
			t.Fatalf("%s: discovery found nothing", scenario)
		}
		for _, n := range append(d.netdevs, d.netdevs[0]) { // asked twice: the cut is reused
			if got, want := d.ipExcerpt(n.Name), ipAddrExcerpt(d.ip.out.Stdout, n.Name); got != want || got == "" {
				t.Errorf("%s %s: ip excerpt %q, want %q", scenario, n.Name, got, want)
			}
		}
		for dp := range d.ports {
			if got, want := d.devinfoExcerpt(dp), devinfoExcerpt(d.devinfo.out.Stdout, dp); got != want || got == "" {
				t.Errorf("%s %v: devinfo excerpt %q, want %q", scenario, dp, got, want)
			}
			idx := map[int]bool{}
			for _, g := range d.gidTable[dp] {
				idx[g.Index] = true
			}
			if got, want := d.gidExcerpt(dp, d.gidTable[dp]), gidExcerpt(d.gids.out.Stdout, dp, idx); got != want || (got == "" && len(idx) > 0) {
				t.Errorf("%s %v: GID excerpt %q, want %q", scenario, dp, got, want)
			}
		}
		if d.ipExcerpt("nosuch0") != "" || d.devinfoExcerpt(DevPort{Dev: "nosuch", Port: 1}) != "" {
			t.Errorf("%s: an unknown netdev or device has an excerpt", scenario)
		}
	}
}

// counterExcerptRef is the counter excerpt by its definition: the lines holding a word.
func counterExcerptRef(text string) string {
	return linesWhere(text, func(l string) bool {
		for _, w := range counterWords {
			if strings.Contains(l, w) {
				return true
			}
		}
		return false
	})
}

// counterExcerpt keeps exactly the lines that hold one of the counter words, in order.
func TestCounterExcerpt(t *testing.T) {
	texts := []string{"", "\n", "pause", "rx_bytes: 1", "ecn\n", "\nrx_pause_ctrl_phy: 1\n\ntx_discards_phy: 0",
		"np_cnp_sent: 3\r\nnp_ecn_marked_roce_packets: 0\r\n  \nout_of_sequence: 0",
		"rx_retrans: 1\nlocal_ack_timeout_err: 0\nrx_bytes: 12\npausse: 1\np\npaus\necnp\nout_of_sequenc\nxtimeout\nrdma_cnp",
		"pause_discard_cnp_ecn: 1\npausepause\n", "paus\ne\ncn"}
	tr := loadTranscript(t)
	texts = append(texts, tr["ethtool -S ens1np0"].Stdout, tr["grep -s -H . /sys/class/infiniband/mlx5_0/ports/1/hw_counters/*"].Stdout)
	for _, text := range texts {
		if got, want := counterExcerpt(text), counterExcerptRef(text); got != want {
			t.Errorf("counterExcerpt(%q) =\n%q\nwant\n%q", text, got, want)
		}
	}
}

// go test -fuzz=FuzzCounterExcerpt -fuzztime=30s ./collectors/linux
func FuzzCounterExcerpt(f *testing.F) {
	f.Add("rx_prio3_pause: 0\nx\necn")
	f.Add("ecn")
	f.Fuzz(func(t *testing.T, text string) {
		if got, want := counterExcerpt(text), counterExcerptRef(text); got != want {
			t.Errorf("counterExcerpt(%q) = %q, want %q", text, got, want)
		}
	})
}

// BenchmarkCounterExcerpt is the counter excerpt of one 400G port's ethtool -S.
func BenchmarkCounterExcerpt(b *testing.B) {
	text := loadTranscript(b)["ethtool -S ens1np0"].Stdout
	b.ReportAllocs()
	for b.Loop() {
		counterExcerpt(text)
	}
}

// The excerpts as they were read from each whole output, before the outputs were cut once per
// host: the references the cut excerpts must equal.

// ipAddrExcerpt is the compacted JSON object of one netdev in the whole of ip's output.
func ipAddrExcerpt(jsonText, ifname string) string {
	return ipObjectExcerpt(ipObjects(jsonText), ifname)
}

// ipObjectExcerpt is ipAddrExcerpt over already parsed objects.
func ipObjectExcerpt(objs []map[string]json.RawMessage, ifname string) string {
	for _, o := range objs {
		var name string
		if json.Unmarshal(o["ifname"], &name) != nil || name != ifname {
			continue
		}
		return ipFieldsExcerptRef(func(k string) (json.RawMessage, bool) { v, ok := o[k]; return v, ok })
	}
	return ""
}

// gidExcerpt is the grep lines of one port's populated GID entries.
func gidExcerpt(text string, dp DevPort, indexes map[int]bool) string {
	prefix := gidPortPrefix(dp)
	return linesWhere(text, func(l string) bool { return gidLineKept(l, prefix, indexes) })
}
