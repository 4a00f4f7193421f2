package reports

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/topology"
)

// Node and link colours gathered in one pass are what a scan of every result per node and
// per link finds (statuses outside the known ones included, which tie on rank).
func TestFabricColoursMatchAScanOfEveryResult(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	statuses := append(append([]checks.Status(nil), checks.Statuses...), "odd", "other")
	for range 50 {
		r := &Report{}
		for d := range 6 {
			role := topology.RoleSwitch
			if d < 3 {
				role = topology.RoleHost
			}
			r.Devices = append(r.Devices, DeviceSummary{Name: fmt.Sprint("d", d), Role: role})
		}
		for range 60 {
			res := checks.Result{Check: "X", Status: statuses[rng.IntN(len(statuses))], Device: fmt.Sprint("d", rng.IntN(6)),
				Interface: fmt.Sprint("p", rng.IntN(3)), Peer: fmt.Sprintf("d%d:p%d", rng.IntN(6), rng.IntN(3))}
			if rng.IntN(4) == 0 {
				res.Path = "d0:p0->d1:p0"
			}
			r.Results = append(r.Results, res)
		}
		d := drawFabric(r)
		for _, n := range d.Nodes {
			if want := worstOf(r.Results, func(res checks.Result) bool { return res.Device == n.Name }); n.Status != string(want) {
				t.Fatalf("node %s: %q, want %q", n.Name, n.Status, want)
			}
		}
		for _, l := range d.Links {
			a, b := splitPeer(l.A), splitPeer(l.B)
			want := worstOf(r.Results, func(res checks.Result) bool {
				p := portKey{res.Device, res.Interface}
				return res.Path == "" && (p == a || p == b)
			})
			if l.Status != string(want) {
				t.Fatalf("link %s-%s: %q, want %q", l.A, l.B, l.Status, want)
			}
		}
		if len(d.Links) == 0 {
			t.Fatal("no link drawn")
		}
	}
}

func splitPeer(s string) portKey {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == ':' {
			return portKey{s[:i], s[i+1:]}
		}
	}
	return portKey{s, ""}
}
