package checks

import (
	"fmt"
	"slices"
	"testing"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// Devices are judged in parallel chunks; results come in device order all the same, with
// or without --only leaving most of each chunk's room unused, and unreachable ones in place.
func TestRunKeepsDeviceOrderAcrossChunks(t *testing.T) {
	snap := &topology.Snapshot{Recipe: recipe.Default()}
	for i := range 5*deviceChunk + 7 {
		d := &topology.Device{Name: fmt.Sprintf("gpu%03d", i), Platform: "linux", Role: topology.RoleHost, Reachable: i%9 != 4,
			Host: healthyHost(healthyPort(), healthyPort())}
		d.Host.Ports[1].Netdev = "ens2"
		if !d.Reachable {
			d.Host, d.Error = nil, "unreachable"
		}
		snap.Devices = append(snap.Devices, d)
	}
	for _, opts := range []Options{{}, {Only: []string{"HOST-PFC"}}} {
		res := Run(snap, opts)
		var devices []string
		for _, r := range res {
			if len(devices) == 0 || devices[len(devices)-1] != r.Device {
				devices = append(devices, r.Device)
			}
		}
		var want []string
		for _, d := range snap.Devices {
			want = append(want, d.Name)
		}
		if !slices.Equal(devices, want) {
			t.Fatalf("%+v: devices in results %v, want %v", opts, devices, want)
		}
		for _, r := range res {
			if r.Check == "" {
				t.Fatalf("%+v: an empty result among %d", opts, len(res))
			}
			if len(opts.Only) > 0 && r.Check != "HOST-PFC" && r.Status != Error {
				t.Fatalf("--only HOST-PFC gave %+v", r)
			}
		}
		if len(opts.Only) > 0 && len(res) != 2*(len(snap.Devices)-(len(snap.Devices)+4)/9)+(len(snap.Devices)+4)/9 {
			t.Errorf("--only HOST-PFC: %d results", len(res))
		}
	}
}
