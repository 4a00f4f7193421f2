// Package linuxhost runs the Linux collector and the HOST-* checks against emulated hosts as
// real deployments shape them: RoCE LAG, no systemd, application settings in login files.
package linuxhost

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/collectors/linux"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/lab/linuxhost"
	"github.com/roceaudit/roceaudit/labcheck"
	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// audit collects h with the Linux collector over its exec answers and runs the host checks.
func audit(t *testing.T, h *linuxhost.Host) (*topology.Device, map[string]checks.Status) {
	t.Helper()
	p := linux.Descriptor()
	d := &topology.Device{Name: h.Name, Platform: "linux", Role: topology.RoleHost, Reachable: true}
	if err := p.Collect(context.Background(), labcheck.ExecRunner{Dev: h, Allow: p.Allowlist()}, inventory.DeviceSpec{Name: h.Name}, d); err != nil {
		t.Fatal(err)
	}
	snap := &topology.Snapshot{Recipe: recipe.Default(), Devices: []*topology.Device{d}}
	got := map[string]checks.Status{}
	for _, r := range checks.Run(snap, checks.Options{}) {
		got[r.Interface+" "+r.Check] = r.Status
		if r.Status == checks.Fail && r.Check == "HOST-PFC" && !strings.Contains(r.Message, "RoCE LAG bond bond0") {
			t.Errorf("HOST-PFC failure does not name the bond: %+v", r)
		}
	}
	return d, got
}

func TestRoCELAGNoSystemdAndApplicationTrafficClass(t *testing.T) {
	h := linuxhost.NewGPUHost("gpu01", 1)
	if err := h.MakeRoCELAG("bond0", linuxhost.Port0, linuxhost.Port1); err != nil {
		t.Fatal(err)
	}
	h.NoSystemd, h.LLDPadActive = true, false
	h.Netdev(linuxhost.Port1).Eth.PFC = [8]bool{} // the second PF was never configured
	for _, d := range h.RDMA {
		for _, p := range d.Ports {
			p.TrafficClass = "" // no OFED override: applications decide
		}
	}
	h.Files["/etc/nccl.conf"] = "NCCL_IB_HCA=mlx5_bond_0\nNCCL_IB_TC=106\n"
	h.Files["/etc/environment"] = "PATH=/usr/local/sbin:/usr/bin\nHF_TOKEN=hf_planted_secret\n"
	h.Files["/etc/profile.d/nccl.sh"] = "export NCCL_IB_TC=0 # left from a benchmark\n"

	d, got := audit(t, h)
	want := map[string]checks.Status{
		"bond0 HOST-RDMA-PORT": checks.Pass, "bond0 HOST-GID-V2": checks.Pass, "bond0 HOST-MTU": checks.Pass,
		"bond0 HOST-PFC": checks.Skip, "bond0 HOST-TRUST": checks.Skip, "bond0 HOST-DCBX": checks.Skip,
		// the environment's NCCL_IB_TC=0 wins over nccl.conf's 106
		"bond0 HOST-APP-TC":  checks.Fail,
		"ens1f0np0 HOST-PFC": checks.Pass, "ens1f0np0 HOST-TRUST": checks.Pass, "ens1f0np0 HOST-DCBX": checks.Pass,
		"ens1f1np1 HOST-PFC": checks.Fail, "ens1f1np1 HOST-PAUSE": checks.Pass, "ens1f1np1 HOST-ECN": checks.Pass,
		"ens1f1np1 HOST-DCBX": checks.Pass, "ens1f1np1 HOST-GID-V2": checks.Skip, "ens1f1np1 HOST-TOS": checks.Skip,
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s = %q, want %s", k, got[k], w)
		}
	}
	if a := d.Host.LLDPAgent; !a.Usable() || a.Value || !strings.Contains(a.Source.Command, linux.CmdPgrepLLDPAD) {
		t.Errorf("lldpad decided without pgrep: %+v", a)
	}
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "hf_planted_secret") || strings.Contains(string(b), "HF_TOKEN") {
		t.Error("a line of /etc/environment that is no RDMA knob reached the snapshot")
	}
}
