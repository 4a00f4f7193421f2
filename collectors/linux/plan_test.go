package linux

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/inventory"
)

// An inventory that lists a RoCE LAG bond plans what Collect really sends: nothing per NIC to
// the bond, the per-NIC commands to each slave ({slave}), the RDMA device's to the bond's.
func TestPlanForABondListsWhatCollectSends(t *testing.T) {
	spec := inventory.DeviceSpec{Name: "gpu05", Interfaces: []string{"bond0"}}
	plan := (Platform{}).Plan(spec)
	for _, c := range plan {
		if strings.Contains(c, "mlnx_qos -i bond0") || strings.Contains(c, "ethtool -a bond0") || strings.Contains(c, "/sys/class/net/bond0/ecn") {
			t.Errorf("plan lists a per-NIC command Collect never sends to a bond: %q", c)
		}
	}
	if !slices.Contains(plan, "mlnx_qos -i {slave}") || !slices.Contains(plan, "ethtool -S bond0") {
		t.Errorf("plan for bond0:\n%s", strings.Join(plan, "\n"))
	}

	f := newFakeRunner("roce-lag")
	if _, err := collectScenario(t, f, spec); err != nil {
		t.Fatal(err)
	}
	// Each sent command, with the slave's name put back as {slave} and the RDMA device's as
	// {dev}/{port}, is a planned one.
	fold := strings.NewReplacer("ens1f0np0", "{slave}", "ens1f1np1", "{slave}", "mlx5_bond_0/", "{dev}/", "ports/1/", "ports/{port}/", "tc/1/", "tc/{port}/")
	var sent []string
	for _, c := range f.sentCommands() {
		if c := fold.Replace(c); !slices.Contains(sent, c) {
			sent = append(sent, c)
		}
	}
	var unplanned []string
	for _, c := range sent {
		if !slices.Contains(plan, c) {
			unplanned = append(unplanned, c)
		}
	}
	if len(unplanned) > 0 {
		t.Errorf("sent but not planned:\n%s", strings.Join(unplanned, "\n"))
	}
	// Everything planned is sent but what the fixture makes unnecessary: the dcb fallbacks
	// (mlnx_qos answers), pgrep (systemctl answers), default_roce_tos (traffic_class is set).
	var unsent []string
	for _, c := range plan {
		if !slices.Contains(sent, c) && !strings.HasPrefix(c, "dcb ") && c != CmdPgrepLLDPAD && c != CmdDefaultRoCEToS {
			unsent = append(unsent, c)
		}
	}
	if diff := cmp.Diff([]string(nil), unsent); diff != "" {
		t.Errorf("planned but not sent (-want +got):\n%s", diff)
	}
	// A VLAN on a bond, or another name, is planned as a NIC.
	if p := (Platform{}).Plan(inventory.DeviceSpec{Name: "h", Interfaces: []string{"bond0.100"}}); !slices.Contains(p, "mlnx_qos -i bond0.100") {
		t.Errorf("bond0.100 planned as a bond:\n%s", strings.Join(p, "\n"))
	}
}
