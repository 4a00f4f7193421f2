package linux

import (
	"testing"

	"github.com/roceaudit/roceaudit/topology"
)

func TestParseEthtoolPause(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want topology.Pause
	}{
		{"fixture, pause off", readFixture(t, "ofed-lossless", "ethtool_a.ens1f0np0"), topology.Pause{}},
		{"fixture, link pause on", readFixture(t, "dual-port", "ethtool_a.ens1f1np1"), topology.Pause{RX: true, TX: true}},
		{"E810 README copy, negotiated lines", "    Pause parameters for interface:\n    Autonegotiate: on\n    RX: on\n    TX: on\n    RX negotiated:  on\n    TX negotiated:  on\n",
			topology.Pause{Autoneg: true, RX: true, TX: true}},
		{"with statistics", "Pause parameters for eth0:\nAutonegotiate:\toff\nRX:\t\ton\nTX:\t\toff\nStatistics:\n  tx_pause_frames: 12\n  rx_pause_frames: 0\n",
			topology.Pause{RX: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseEthtoolPause(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
	for _, in := range []string{"", "netlink error: Operation not supported\n", "Pause parameters for eth0:\nAutonegotiate:\toff\nRX:\t\tmaybe\nTX:\t\toff\n", "Pause parameters for eth0:\nRX:\t\ton\nTX:\t\ton\n"} {
		if got, err := ParseEthtoolPause(in); err == nil {
			t.Errorf("ParseEthtoolPause(%q) = %+v, want an error", in, got)
		}
	}
}
