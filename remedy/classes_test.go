package remedy

import (
	"slices"
	"testing"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

func TestClassesFollowTheFacts(t *testing.T) {
	src := topology.Evidence{Command: "test"}
	p := &topology.SwitchPort{
		PriorityClass: map[int]int{3: 5},
		DSCPToTC:      topology.Known(map[int]int{26: 5, 48: 7}, src),
		TCToQueue:     topology.Known(map[int]int{5: 5, 7: 2}, src),
		PFC:           topology.Known(topology.SwitchPFC{RX: []int{3, 4}, TX: []int{3, 6}}, src),
	}
	in := Input{Switch: p, Recipe: recipe.Default()}
	if in.RoCEClass() != 5 || in.RoCEQueue() != 5 {
		t.Errorf("RoCE class %d queue %d, want 5 5", in.RoCEClass(), in.RoCEQueue())
	}
	if c, mapped := in.CNPClass(); c != 7 || !mapped || in.CNPQueue() != 2 {
		t.Errorf("CNP class %d (mapped %v) queue %d, want 7 true 2", c, mapped, in.CNPQueue())
	}
	if got := in.ExtraPFC(); !slices.Equal(got, []int{4, 6}) {
		t.Errorf("extra PFC %v", got)
	}
	// CNPs in the RoCE class, or no facts: the recipe's CNP priority, and every other priority off.
	p.DSCPToTC.Value[48] = 5
	if c, mapped := in.CNPClass(); c != 6 || mapped {
		t.Errorf("CNP in the RoCE class: %d %v", c, mapped)
	}
	bare := Input{Recipe: recipe.Default()}
	if c, _ := bare.CNPClass(); c != 6 || bare.CNPQueue() != 6 || !slices.Equal(bare.ExtraPFC(), []int{0, 1, 2, 4, 5, 6, 7}) {
		t.Errorf("no facts: class %d queue %d extra %v", c, bare.CNPQueue(), bare.ExtraPFC())
	}
}
