package cumuluscheck

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/roceaudit/roceaudit/collectors"
	cumuluscol "github.com/roceaudit/roceaudit/collectors/cumulus"
	"github.com/roceaudit/roceaudit/internal/benchcpu"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/labcheck"
	"github.com/roceaudit/roceaudit/topology"
)

// BenchmarkParseGenericLeaf is ParseGeneratedLeaf for the generated leaf in the generic
// regime (one port trusting PCP only takes the switch out of RoCE mode): the five text QoS
// commands a port instead of the RoCE status.
func BenchmarkParseGenericLeaf(b *testing.B) {
	leaf, _ := generated.Generated(b)
	leaf.Switch.Ports[0].TrustDSCP = false
	coll := cumuluscol.Descriptor()
	var mu sync.Mutex
	answers := replayed{}
	rec := recording{labcheck.ExecRunner{Dev: leaf.Device, Allow: coll.Allowlist()}, func(cmd string, out collectors.Output) {
		mu.Lock()
		defer mu.Unlock()
		answers[cmd] = out
	}}
	dev := &topology.Device{Name: leaf.Name, Platform: coll.Name(), Role: topology.RoleSwitch}
	if err := coll.Collect(context.Background(), rec, inventory.DeviceSpec{Name: leaf.Name}, dev); err != nil {
		b.Fatal(err)
	}
	if p := dev.Switch.Ports[1]; p.Trust.Source.Command != "nv show interface "+p.Name+" qos mapping" {
		b.Fatalf("not the generic regime: trust from %q", p.Trust.Source.Command)
	}
	b.ReportAllocs()
	defer benchcpu.Report(b)()
	for b.Loop() {
		dev := &topology.Device{Name: leaf.Name, Platform: coll.Name(), Role: topology.RoleSwitch}
		if err := coll.Collect(context.Background(), answers, inventory.DeviceSpec{Name: leaf.Name}, dev); err != nil {
			b.Fatal(err)
		}
	}
}

type replayed map[string]collectors.Output

func (r replayed) Run(_ context.Context, cmd string) (collectors.Output, error) {
	out, ok := r[cmd]
	if !ok {
		return collectors.Output{}, fmt.Errorf("%q was not recorded", cmd)
	}
	return out, nil
}

type recording struct {
	r    collectors.Runner
	keep func(string, collectors.Output)
}

func (r recording) Run(ctx context.Context, cmd string) (collectors.Output, error) {
	out, err := r.r.Run(ctx, cmd)
	if err == nil {
		r.keep(cmd, out)
	}
	return out, err
}
