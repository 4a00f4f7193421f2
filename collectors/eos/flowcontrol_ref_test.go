package eos

import (
	"regexp"
	"testing"
)

// flowRowRE is the expression flowRow replaced.
var flowRowRE = regexp.MustCompile(`^(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\d+)\s+(\d+)\s*$`)

func FuzzFlowRowAgreesWithRegexp(f *testing.F) {
	for _, s := range []string{"Et1         off      off      off      off         0             0            ",
		"Et1 on on on on 1 2", " Et1 on on on on 1 2", "Et1 on on on on 1 2 3", "Et1 on on on on 1 x", "Et1\ton\fon\ron on 1 2\r",
		"Et1 on on on on 1 2\v", "Et1 on on on on 1", "", "Et1 é on on on 1 2", "Et1 \xff on on on 1 2", "Et1 on on on on 1 2\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, l string) {
		got, ok := flowRow(l)
		m := flowRowRE.FindStringSubmatch(l)
		if ok != (m != nil) || ok && [7]string(m[1:]) != got {
			t.Errorf("%q: got %q %v, want %q", l, got, ok, m)
		}
	})
}
