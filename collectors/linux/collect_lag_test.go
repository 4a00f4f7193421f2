package linux

import (
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/inventory"
)

// RoCE LAG: bond0 over both PFs behind mlx5_bond_0. The bond keeps RDMA, GIDs and ToS; DCB,
// pause and DCQCN are read on each slave and never asked of the bond.
func TestCollectRoCELAG(t *testing.T) {
	f := newFakeRunner("roce-lag")
	dev, err := collectScenario(t, f, inventory.DeviceSpec{Name: "gpu05"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range dev.Host.Ports {
		names = append(names, p.Netdev)
	}
	if strings.Join(names, " ") != "bond0 ens1f0np0 ens1f1np1" {
		t.Fatalf("ports %v, want the bond and its two slaves", names)
	}
	bond, pf0, pf1 := dev.Host.Ports[0], dev.Host.Ports[1], dev.Host.Ports[2]
	if bond.RDMADevice != "mlx5_bond_0" || strings.Join(bond.LAGSlaves, ",") != "ens1f0np0,ens1f1np1" || !bond.GIDs.Usable() || !bond.ToS.Usable() {
		t.Errorf("bond: %s slaves %v GIDs %v ToS %v", bond.RDMADevice, bond.LAGSlaves, bond.GIDs.Status, bond.ToS.Status)
	}
	if bond.QoS.HasValue() && bond.QoS.Usable() || !strings.Contains(bond.QoS.Reason, "read on its slave PFs (ens1f0np0, ens1f1np1)") {
		t.Errorf("bond QoS must be judged on the slaves: %+v", bond.QoS)
	}
	for _, c := range f.sentCommands() {
		if strings.Contains(c, "mlnx_qos -i bond0") || strings.Contains(c, "ethtool -a bond0") || strings.Contains(c, "/sys/class/net/bond0/ecn") {
			t.Errorf("asked the bond for a per-NIC setting: %q", c)
		}
	}
	if pf0.LAGMaster != "bond0" || pf0.QoS.Value.Trust != "dscp" || !pf0.QoS.Value.PFC[3] || pf0.Pause.Value.RX {
		t.Errorf("ens1f0np0: master %q QoS %+v pause %+v", pf0.LAGMaster, pf0.QoS.Value, pf0.Pause.Value)
	}
	if pf1.QoS.Value.Trust != "pcp" || !pf1.Pause.Value.RX || !pf1.DCQCN.Usable() || !pf1.DCBX.Usable() {
		t.Errorf("ens1f1np1 must carry its own (faulty) settings: QoS %+v pause %+v DCQCN %v DCBX %v", pf1.QoS.Value, pf1.Pause.Value, pf1.DCQCN.Status, pf1.DCBX.Status)
	}
	if pf1.State.Usable() || !strings.Contains(pf1.State.Reason, "RDMA runs on mlx5_bond_0") {
		t.Errorf("slave RDMA state: %+v", pf1.State)
	}
}

// Without systemd as PID 1 systemctl cannot answer; pgrep decides whether lldpad runs.
func TestCollectNoSystemdAsksPgrep(t *testing.T) {
	f := newFakeRunner("no-systemd")
	dev, err := collectScenario(t, f, inventory.DeviceSpec{Name: "gpu06"})
	if err != nil {
		t.Fatal(err)
	}
	a := dev.Host.LLDPAgent
	if !a.Usable() || !a.Value || !strings.Contains(a.Source.Command, CmdPgrepLLDPAD) || !strings.Contains(a.Source.Excerpt, "has not been booted with systemd") {
		t.Errorf("LLDPAgent %+v, want active from pgrep", a)
	}
	if d := dev.Host.Ports[0].DCBX; !d.Usable() || d.Value.Mode != "dcbx" {
		t.Errorf("DCBX %+v, want dcbx (lldpad runs)", d)
	}
	f = newFakeRunner("no-systemd")
	f.overrides[CmdPgrepLLDPAD] = resultExit1()
	dev, _ = collectScenario(t, f, inventory.DeviceSpec{Name: "gpu06"})
	if a := dev.Host.LLDPAgent; !a.Usable() || a.Value {
		t.Errorf("LLDPAgent %+v, want not running (pgrep exit 1)", a)
	}
	// With systemd answering, pgrep is never sent.
	f = newFakeRunner("ofed-lossless")
	_, _ = collectScenario(t, f, inventory.DeviceSpec{Name: "gpu01"})
	for _, c := range f.sentCommands() {
		if c == CmdPgrepLLDPAD {
			t.Error("pgrep sent although systemctl answered")
		}
	}
}

func TestParseAppSettings(t *testing.T) {
	got, err := ParseAppSettings("/etc/nccl.conf:NCCL_IB_TC=106\n/etc/environment:  export NCCL_IB_HCA=\"=mlx5_0,mlx5_1\" # rails\n" +
		"/etc/profile.d/ucx.sh:export UCX_IB_TRAFFIC_CLASS='104'\n/etc/profile.d/x.sh:export NCCL_IB_TC\n")
	if err != nil {
		t.Fatal(err)
	}
	var s []string
	for _, a := range got {
		s = append(s, a.File+" "+a.Key+"="+a.Value)
	}
	want := "/etc/nccl.conf NCCL_IB_TC=106|/etc/environment NCCL_IB_HCA==mlx5_0,mlx5_1|/etc/profile.d/ucx.sh UCX_IB_TRAFFIC_CLASS=104"
	if strings.Join(s, "|") != want {
		t.Errorf("got %q\nwant %q", strings.Join(s, "|"), want)
	}
	if _, err := ParseAppSettings("NCCL_IB_TC=106\n"); err == nil {
		t.Error("a line without FILE: must be refused")
	}
}

func resultExit1() collectors.Output { return collectors.Output{ExitCode: 1} }
