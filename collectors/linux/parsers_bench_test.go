package linux

import (
	"strings"
	"testing"
)

// BenchmarkHostParsers is each host-output parser this package rewrote (with the excerpts it
// now cuts in its pass) against its oracle, on the recorded 8-rail host: the old parser
// and, where the excerpts took passes of their own, those passes.
func BenchmarkHostParsers(b *testing.B) {
	tr := loadTranscript(b)
	devinfo, gids, qos := tr[CmdIbvDevinfo].Stdout, tr[CmdGIDs].Stdout, tr["mlnx_qos -i ens1np0"].Stdout
	dp := DevPort{Dev: "mlx5_3", Port: 1}
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"devinfo/new", func() {
			_, lines, _ := parseIbvDevinfo(devinfo, true)
			(&discovery{devLines: lines}).devinfoExcerpt(dp)
		}},
		{"devinfo/oracle", func() { _, _ = parseIbvDevinfoRef(devinfo); devinfoExcerpt(devinfo, dp) }},
		{"gids/new", func() {
			t, lines, _ := parseSysfsGIDs(gids, true)
			(&discovery{gidLines: lines}).gidExcerpt(dp, t[dp])
		}},
		{"gids/oracle", func() {
			t, _ := parseSysfsGIDsRef(gids)
			idx := map[int]bool{}
			for _, g := range t[dp] {
				idx[g.Index] = true
			}
			gidExcerpt(gids, dp, idx)
		}},
		{"mlnx_qos/new", func() { _, _, _ = readMlnxQos(qos, true) }},
		{"mlnx_qos/oracle", func() {
			_, _ = parseMlnxQosRef(qos)
			qosExcerpt(qos)
			linesWhere(qos, func(l string) bool { return strings.HasPrefix(strings.TrimSpace(l), "DCBX mode:") })
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c.f()
			}
		})
	}
}
