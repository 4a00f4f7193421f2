package eos

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/internal/benchcpu"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

// leafReplies are the generated 248-port leaf's answers, dumped by
// ROCEAUDIT_DUMP_LEAF=dir go test -run DumpGeneratedLeaf ./labcheck/eos; the benchmarks
// below skip without them.
func leafReplies(b *testing.B) map[string]string {
	dir := os.Getenv("ROCEAUDIT_DUMP_LEAF")
	if dir == "" {
		b.Skip("ROCEAUDIT_DUMP_LEAF is not set")
	}
	res := map[string]string{}
	for _, cmd := range Descriptor().Commands() {
		name := strings.NewReplacer(" ", "_", "|", "").Replace(cmd)
		if out, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
			res[cmd] = string(out)
		}
	}
	return res
}

type leafReplay map[string]string

func (r leafReplay) Run(_ context.Context, cmd string) (collectors.Output, error) {
	return collectors.Output{Stdout: r[cmd]}, nil
}

// BenchmarkLeaf splits the leaf's collection by parser, and Collect as a whole.
func BenchmarkLeaf(b *testing.B) {
	r := leafReplies(b)
	parsers := []struct {
		cmd   string
		parse func(string) error
	}{
		{CmdInterfaces, func(s string) error { _, err := ParseInterfaces(s); return err }},
		{CmdFlowcontrol, func(s string) error { _, err := ParseFlowcontrol(s); return err }},
		{CmdLLDP, func(s string) error { _, err := ParseLLDP(s); return err }},
		{CmdRunningConfig, func(s string) error { _, err := ParseRunningConfig(s); return err }},
		{CmdPFCCounters, func(s string) error { _, err := ParsePFCCounters(s); return err }},
	}
	for _, p := range parsers {
		b.Run(strings.Join(strings.Fields(p.cmd)[1:], "_"), func(b *testing.B) {
			b.ReportAllocs()
			defer benchcpu.Report(b)()
			for b.Loop() {
				if err := p.parse(r[p.cmd]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("Collect", func(b *testing.B) {
		b.ReportAllocs()
		defer benchcpu.Report(b)()
		for b.Loop() {
			dev := &topology.Device{Name: "leaf", Platform: "eos", Role: topology.RoleSwitch}
			if err := (Platform{}).Collect(context.Background(), leafReplay(r), inventory.DeviceSpec{}, dev); err != nil {
				b.Fatal(err)
			}
		}
	})
}
