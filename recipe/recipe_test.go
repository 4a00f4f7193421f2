package recipe

import (
	"strings"
	"testing"
)

func TestDefaultIsValid(t *testing.T) {
	if err := Default().Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestValidateNamesTheKey(t *testing.T) {
	cases := map[string]func(r *Recipe){
		"recipe.roce_priority":       func(r *Recipe) { r.RoCEPriority = 8 },
		"recipe.cnp_priority":        func(r *Recipe) { r.CNPPriority = r.RoCEPriority },
		"recipe.roce_dscp":           func(r *Recipe) { r.RoCEDSCP = 64 },
		"recipe.cnp_dscp":            func(r *Recipe) { r.CNPDSCP = r.RoCEDSCP },
		"recipe.roce_tos":            func(r *Recipe) { r.RoCEToS = []int{96} },
		"recipe.roce_mtu":            func(r *Recipe) { r.RoCEMTU = 3000 },
		"recipe.host_mtu":            func(r *Recipe) { r.HostMTU = 100 },
		"recipe.dcbx":                func(r *Recipe) { r.DCBX = "auto" },
		"recipe.min_bandwidth_ratio": func(r *Recipe) { r.MinBandwidthRatio = 1.5 },
	}
	for key, mutate := range cases {
		r := Default()
		mutate(&r)
		err := r.Validate()
		if err == nil || !strings.HasPrefix(err.Error(), key) {
			t.Errorf("%s: got %v", key, err)
		}
	}
}

func TestActiveMTUFollowsTheKernelRule(t *testing.T) {
	for mtu, want := range map[int]int{1500: 1024, 4200: 4096, 4191: 2048, 9000: 4096, 2144: 2048, 2143: 1024} {
		if got := ActiveMTUFor(mtu); got != want {
			t.Errorf("ActiveMTUFor(%d) = %d, want %d", mtu, got, want)
		}
	}
}
