package eos

import (
	"regexp"
	"testing"
)

// frontPanelRE is what IsFrontPanel matched before it was written by hand.
var frontPanelRE = regexp.MustCompile(`^Ethernet[0-9]+(/[0-9]+)*$`)

func FuzzIsFrontPanelAgreesWithRegexp(f *testing.F) {
	for _, s := range []string{"Ethernet1", "Ethernet1/1", "Ethernet1/1/2", "Ethernet1/1/2/3", "Ethernet1/", "Ethernet/1", "Ethernet1//1",
		"Ethernet1/1.100", "ethernet1/1", "Ethernet", "", "Eth1/1", "Ethernet1/1\n", "Ethernet١/1", "Port-Channel1", "mgmt0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := IsFrontPanel(s), frontPanelRE.MatchString(s); got != want {
			t.Errorf("%q: got %v, want %v", s, got, want)
		}
	})
}
