package sonic

import (
	"context"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// `show interfaces counters` lays out portstat's standard columns as sonic-utilities'
// tests/portstat_test.py golden does (right-aligned, commas, a column as wide as its widest
// cell plus two), and its RX_OK/TX_OK follow the port's packet counters.
func TestShowInterfaceCountersFollowsThePort(t *testing.T) {
	sw := smallLeaf()
	sw.Update(func(sw *switchstate.Switch) {
		p := sw.Port("Ethernet4")
		p.Counters[switchstate.InUcastPkts], p.Counters[switchstate.OutUcastPkts] = 1234567, 89
		sw.Port("Ethernet8").Up = false
	})
	out, stderr, exit := New(sw).Exec(context.Background(), "show interfaces counters")
	if exit != 0 || stderr != "" {
		t.Fatalf("exit %d: %s", exit, stderr)
	}
	lines := strings.Split(out, "\n")
	if want := "    IFACE    STATE      RX_OK    RX_BPS    RX_UTIL    RX_ERR    RX_DRP    RX_OVR    TX_OK    TX_BPS    TX_UTIL    TX_ERR    TX_DRP    TX_OVR"; lines[0] != want {
		t.Errorf("header\n%q\nwant\n%q", lines[0], want)
	}
	if !strings.HasPrefix(lines[1], "---------  -------  ") {
		t.Errorf("rule %q", lines[1])
	}
	for _, want := range []string{"Ethernet4        U  1,234,567  0.00 B/s", "       89  0.00 B/s", "Ethernet8        D          0"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}
