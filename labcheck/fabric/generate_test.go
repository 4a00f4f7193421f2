package fabriccheck

import (
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/collectors/perftest"
	"github.com/roceaudit/roceaudit/lab"
	"github.com/roceaudit/roceaudit/lab/linuxhost"
)

// The generated paths carry transfers at line rate across the spines (through rdmaemu over the
// fabric's cables), also to a host past the profile's 250.
func TestGeneratedTransfers(t *testing.T) {
	g := lab.Generate{Hosts: 300, Leaves: 4, Spines: 2}
	tl := newTransferLab(t, lab.Options{Generate: &g})
	pairs := append(g.Paths(), [2]string{"gpu001:" + linuxhost.Port0, "gpu300:" + linuxhost.Port0})
	for i, p := range pairs {
		from, to := strings.Split(p[0], ":"), strings.Split(p[1], ":")
		before := tl.switchCounters()
		cdev, _ := tl.hosts[from[0]].Port(from[1])
		sdev, _ := tl.hosts[to[0]].Port(to[1])
		ip := tl.hosts[to[0]].Netdev(to[1]).Addrs[0].Addr().String()
		out, errText, exit := tl.run(t, from[0], cdev.Name, to[0], sdev.Name, ip, 18515+i)
		res, err := perftest.ParseBW(out)
		if exit != 0 || err != nil || res.AvgGbps < 96 {
			t.Errorf("%v: exit %d %v %+v %s", p, exit, err, res, errText)
		}
		spine := false
		for k, v := range tl.switchCounters() {
			spine = spine || strings.HasPrefix(k, "spine") && strings.HasSuffix(k, " queue3_tx_packets") && v > before[k]
		}
		if !spine {
			t.Errorf("%v: no spine queue counter rose", p)
		}
	}
}
