package linux

import (
	"context"
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
		d := discover(context.Background(), executor{r: r, pre: &answers{}})
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
