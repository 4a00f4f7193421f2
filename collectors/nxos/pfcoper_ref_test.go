package nxos

import (
	"regexp"
	"testing"
)

// pfcRowRE is the expression pfcRow replaced.
var pfcRowRE = regexp.MustCompile(`^(\S+)\s+(Auto|On|Off)\s+(On|Off)\s*(?:\(([0-9A-Fa-f]+)\))?\s+(\d+)\s+(\d+)\s*$`)

func FuzzPFCRowAgreesWithRegexp(f *testing.F) {
	for _, s := range []string{"Ethernet1/1        On   On  (8)         0          0", "Ethernet1/1 Auto Off 0 0", "Ethernet1/1 Auto Off(8) 0 0",
		"Ethernet1/1 Auto On (fF) 12 34 ", "Ethernet1/1 Auto On () 1 2", "Ethernet1/1 Auto On (8) (8) 1 2", "Ethernet1/1 Auto On(8)1 2",
		"Ethernet1/1 Auto Onx 1 2", "Ethernet1/1 Auto Offf 1 2", "Ethernet1/1 auto On 1 2", " Ethernet1/1 Auto On 1 2", "E Auto On (g) 1 2",
		"E Auto On\t(8)\r1\f2", "E Auto On 1", "E Auto On 1 2 3", "E Auto On(8 ) 1 2", "E Auto On (8)1 2", "E On Off ( 8) 1 2", "E\vx Auto On 1 2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, l string) {
		got, ok := pfcRow(l)
		m := pfcRowRE.FindStringSubmatch(l)
		if ok != (m != nil) || ok && [7]string(m) != got {
			t.Errorf("%q: got %q %v, want %q", l, got, ok, m)
		}
	})
}
