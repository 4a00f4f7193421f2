package cumuluscheck

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/collectors"
	cumuluscol "github.com/roceaudit/roceaudit/collectors/cumulus"
	"github.com/roceaudit/roceaudit/lab/cumulus"
)

// BenchmarkExecPerPort256 is the lab's share of one collection of a 256-port Cumulus switch
// (a leaf of a 10,000-device --generate fabric): every collector command for every port,
// (the switch-wide ones once) answered by the emulator's Exec, no SSH and no parsing:
//
//	go test -run '^$' -bench ExecPerPort256 -cpuprofile cpu.out ./labcheck/cumulus
//	go tool pprof -top -cum cpu.out
//
// Lessons of the profiles:
//   - Every per-port command decided the switch's regime by comparing every port with RoCE
//     mode's profile (ports² per collection: 256 ports x 12 commands x 256 ports). The
//     emulator now keeps the regime, decided again only after the state changed.
func BenchmarkExecPerPort256(b *testing.B) {
	ports := make([]string, 256)
	for i := range ports {
		ports[i] = "swp" + strconv.Itoa(i+1)
	}
	dev := cumulus.New(cumulus.NewState("leaf1", "98:03:9b:10:02:00", ports...))
	var cmds []string
	for _, tmpl := range cumuluscol.Templates() {
		if !strings.Contains(tmpl, "{if}") {
			cmds = append(cmds, tmpl) // switch-wide: sent once
			continue
		}
		for _, p := range ports {
			cmd, err := collectors.Expand(tmpl, map[string]string{"if": p})
			if err != nil {
				b.Fatal(err)
			}
			cmds = append(cmds, cmd)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, cmd := range cmds {
			if _, _, exit := dev.Exec(context.Background(), cmd); exit != 0 {
				b.Fatalf("%q: exit %d", cmd, exit)
			}
		}
	}
}
