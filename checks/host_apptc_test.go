package checks

import (
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

func appTCResult(t *testing.T, tos topology.ToS, settings ...topology.AppSetting) Result {
	t.Helper()
	p := healthyPort()
	p.ToS.Value = tos
	h := healthyHost(p)
	h.AppSettings.Value = settings
	snap := &topology.Snapshot{Recipe: recipe.Default(), Devices: []*topology.Device{{
		Name: "gpu01", Platform: "linux", Role: topology.RoleHost, Reachable: true, Host: h}}}
	for _, r := range Run(snap, Options{Only: []string{"HOST-APP-TC"}}) {
		return r
	}
	t.Fatal("no HOST-APP-TC result")
	return Result{}
}

func TestAppTCDecidedAsNCCLDoes(t *testing.T) {
	rdmaCM := topology.ToS{Value: 106, Set: true, From: "default_roce_tos"}
	conf := func(k, v string) topology.AppSetting {
		return topology.AppSetting{Key: k, Value: v, File: topology.NCCLConf}
	}
	env := func(k, v, f string) topology.AppSetting { return topology.AppSetting{Key: k, Value: v, File: f} }
	for _, tc := range []struct {
		name     string
		tos      topology.ToS
		settings []topology.AppSetting
		status   Status
		want     string // in actual or message
	}{
		{"rdma-cm default does not reach NCCL", rdmaCM, nil, Fail, "NCCL's default"},
		{"nccl.conf sets it", rdmaCM, []topology.AppSetting{conf("NCCL_IB_TC", "106")}, Pass, "NCCL_IB_TC in /etc/nccl.conf"},
		{"environment wins over nccl.conf", rdmaCM, []topology.AppSetting{conf("NCCL_IB_TC", "106"), env("NCCL_IB_TC", "0", "/etc/environment")}, Fail, "ToS 0 (DSCP 0) from NCCL_IB_TC in /etc/environment"},
		{"profile.d after /etc/environment", rdmaCM, []topology.AppSetting{env("NCCL_IB_TC", "0", "/etc/environment"), env("NCCL_IB_TC", "106", "/etc/profile.d/nccl.sh")}, Pass, "/etc/profile.d/nccl.sh"},
		{"OFED override decides", topology.ToS{Value: 106, Set: true, From: "traffic_class"}, []topology.AppSetting{conf("NCCL_IB_TC", "0")}, Pass, "traffic_class override"},
		{"HCA excluded", rdmaCM, []topology.AppSetting{conf("NCCL_IB_HCA", "^=mlx5_0")}, Skip, "excludes mlx5_0"},
		{"HCA listed by prefix", rdmaCM, []topology.AppSetting{conf("NCCL_IB_HCA", "mlx5")}, Fail, "set NCCL_IB_TC to 106"},
		{"UCX wrong", rdmaCM, []topology.AppSetting{conf("NCCL_IB_TC", "106"), env("UCX_IB_TRAFFIC_CLASS", "0", "/etc/profile.d/ucx.sh")}, Fail, "set UCX_IB_TRAFFIC_CLASS to 106"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := appTCResult(t, tc.tos, tc.settings...)
			if r.Status != tc.status || !strings.Contains(r.Actual+" "+r.Message, tc.want) {
				t.Errorf("%s %q %q, want %s with %q", r.Status, r.Actual, r.Message, tc.status, tc.want)
			}
		})
	}
}

func TestNCCLUsesHCA(t *testing.T) {
	for spec, want := range map[string]bool{
		"mlx5_0": true, "mlx5_0:1": true, "mlx5_0:2": false, "=mlx5_1": false, "mlx5_1,mlx5_0": true,
		"^mlx5_0": false, "^=mlx5_00": true, "mlx5": true, "=mlx5": false,
	} {
		if got := ncclUsesHCA(spec, "mlx5_0", 1); got != want {
			t.Errorf("NCCL_IB_HCA=%s uses mlx5_0/1: %v, want %v", spec, got, want)
		}
	}
}
