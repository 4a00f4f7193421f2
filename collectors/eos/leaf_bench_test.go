package eos

import (
	"context"
	"testing"

	"github.com/roceaudit/roceaudit/internal/leafreplay"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

// BenchmarkLeaf splits the generated 248-port leaf's collection by parser, and Collect as a
// whole, on its answers as ROCEAUDIT_DUMP_LEAF=dir go test -run DumpGeneratedLeaf
// ./labcheck/eos wrote them (skipped without them).
func BenchmarkLeaf(b *testing.B) {
	leafreplay.Bench(b, leafreplay.Load(b, Descriptor().Commands()), []leafreplay.Parser{
		{Cmd: CmdInterfaces, Parse: func(s string) error { _, err := ParseInterfaces(s); return err }},
		{Cmd: CmdFlowcontrol, Parse: func(s string) error { _, err := ParseFlowcontrol(s); return err }},
		{Cmd: CmdLLDP, Parse: func(s string) error { _, err := ParseLLDP(s); return err }},
		{Cmd: CmdRunningConfig, Parse: func(s string) error { _, err := ParseRunningConfig(s); return err }},
		{Cmd: CmdPFCCounters, Parse: func(s string) error { _, err := ParsePFCCounters(s); return err }},
	}, func(r leafreplay.Replies) error {
		dev := &topology.Device{Name: "leaf", Platform: "eos", Role: topology.RoleSwitch}
		return (Platform{}).Collect(context.Background(), r, inventory.DeviceSpec{}, dev)
	})
}
