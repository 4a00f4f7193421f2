package nxos

import (
	"context"
	"testing"

	"github.com/roceaudit/roceaudit/internal/leafreplay"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

// BenchmarkLeaf splits the generated 248-port leaf's collection by parser, and Collect as a
// whole, on its answers as ROCEAUDIT_DUMP_LEAF=dir go test -run DumpGeneratedLeaf
// ./labcheck/nxos wrote them (skipped without them).
func BenchmarkLeaf(b *testing.B) {
	leafreplay.Bench(b, leafreplay.Load(b, Descriptor().Commands()), []leafreplay.Parser{
		{Cmd: CmdInterface, Parse: func(s string) error { _, err := ParseInterface(s); return err }},
		{Cmd: CmdLLDP, Parse: func(s string) error { _, err := ParseLLDP(s); return err }},
		{Cmd: CmdQoSConfig, Parse: func(s string) error { _, err := ParseQoSConfig(s); return err }},
		{Cmd: CmdPFCOper, Parse: func(s string) error { _, err := ParsePFCOper(s); return err }},
		{Cmd: CmdQueuingJSON, Parse: func(s string) error { _, err := ParseQueuing(s); return err }},
	}, func(r leafreplay.Replies) error {
		dev := &topology.Device{Name: "leaf", Platform: "nxos", Role: topology.RoleSwitch}
		return (Platform{}).Collect(context.Background(), r, inventory.DeviceSpec{}, dev)
	})
}
