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
		d := discover(context.Background(), newExecutor(r, false))
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
			if got, want := d.gidExcerpt(dp, idx), gidExcerpt(d.gids.out.Stdout, dp, idx); got != want || (got == "" && len(idx) > 0) {
				t.Errorf("%s %v: GID excerpt %q, want %q", scenario, dp, got, want)
			}
		}
		if d.ipExcerpt("nosuch0") != "" || d.devinfoExcerpt(DevPort{Dev: "nosuch", Port: 1}) != "" {
			t.Errorf("%s: an unknown netdev or device has an excerpt", scenario)
		}
	}
}

// counterLineKept keeps exactly the lines that contain one of the counter words.
func TestCounterLineKept(t *testing.T) {
	words := []string{"pause", "discard", "cnp", "ecn", "out_of_sequence", "retrans", "timeout"}
	lines := []string{"", "rx_pause_ctrl_phy: 1", "tx_discards_phy: 0", "np_cnp_sent: 3", "np_ecn_marked_roce_packets: 0",
		"out_of_sequence: 0", "rx_retrans: 1", "local_ack_timeout_err: 0", "rx_bytes: 12", "pausse: 1", "p", "paus", "ecnp",
		"out_of_sequenc", "xtimeout", "rdma_cnp"}
	for _, l := range append(lines, loadTranscript(t)["ethtool -S ens1np0"].Stdout) {
		want := false
		for _, w := range words {
			want = want || strings.Contains(l, w)
		}
		if got := counterLineKept(l); got != want {
			t.Errorf("counterLineKept(%q) = %v, want %v", l, got, want)
		}
	}
}

// go test -fuzz=FuzzCounterLineKept -fuzztime=30s ./collectors/linux
func FuzzCounterLineKept(f *testing.F) {
	f.Add("rx_prio3_pause: 0")
	f.Add("ecn")
	f.Fuzz(func(t *testing.T, l string) {
		want := false
		for _, w := range []string{"pause", "discard", "cnp", "ecn", "out_of_sequence", "retrans", "timeout"} {
			want = want || strings.Contains(l, w)
		}
		if counterLineKept(l) != want {
			t.Errorf("counterLineKept(%q) = %v, want %v", l, !want, want)
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
		return ipFieldsExcerpt(func(k string) (json.RawMessage, bool) { v, ok := o[k]; return v, ok })
	}
	return ""
}

// gidExcerpt is the grep lines of one port's populated GID entries.
func gidExcerpt(text string, dp DevPort, indexes map[int]bool) string {
	prefix := gidPortPrefix(dp)
	return linesWhere(text, func(l string) bool { return gidLineKept(l, prefix, indexes) })
}
