package checks

import (
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// A RoCE LAG: bond0 carries mlx5_bond_0 and the GIDs, each slave PF its own DCB settings.
func TestLAGJudgesPerNICSettingsOnEachSlave(t *testing.T) {
	bond := healthyPort()
	bond.Netdev, bond.RDMADevice, bond.LAGSlaves = "bond0", "mlx5_bond_0", []string{"ens1f0np0", "ens1f1np1"}
	bond.Link.Value.Name, bond.Link.Value.Kind = "bond0", "bond"
	for i := range bond.GIDs.Value {
		bond.GIDs.Value[i].Netdev = "bond0"
	}
	slaves := []*topology.HostPort{healthyPort(), healthyPort()}
	for i, s := range slaves {
		s.Netdev, s.LAGMaster, s.RDMADevice = bond.LAGSlaves[i], "bond0", ""
		s.Link.Value = topology.Netdev{Name: s.Netdev, MTU: 9000, OperState: "UP", Master: "bond0"}
	}
	slaves[1].QoS.Value.PFC[4] = true // the fault, on the second PF only
	snap := &topology.Snapshot{Recipe: recipe.Default(), Devices: []*topology.Device{{
		Name: "gpu01", Platform: "linux", Role: topology.RoleHost, Reachable: true,
		Host: healthyHost(bond, slaves[0], slaves[1])}}}
	got := map[string]Status{}
	var pfc Result
	for _, r := range Run(snap, Options{}) {
		got[r.Interface+" "+r.Check] = r.Status
		if r.Check == "HOST-PFC" && r.Status == Fail {
			pfc = r
		}
	}
	for key, want := range map[string]Status{
		"bond0 HOST-PFC": Skip, "bond0 HOST-GID-V2": Pass, "bond0 HOST-TOS": Pass, "bond0 HOST-APP-TC": Pass, "bond0 HOST-DCBX": Skip,
		"ens1f0np0 HOST-PFC": Pass, "ens1f1np1 HOST-PFC": Fail, "ens1f1np1 HOST-TRUST": Pass,
		"ens1f0np0 HOST-GID-V2": Skip, "ens1f1np1 HOST-RDMA-PORT": Skip, "ens1f1np1 HOST-TOS": Skip,
	} {
		if got[key] != want {
			t.Errorf("%s = %s, want %s", key, got[key], want)
		}
	}
	if pfc.Interface != "ens1f1np1" || !strings.Contains(pfc.Message, "slave PF ens1f1np1 of RoCE LAG bond bond0") {
		t.Errorf("the failing result must name the slave: %+v", pfc)
	}
}
