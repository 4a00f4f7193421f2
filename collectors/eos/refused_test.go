package eos

import (
	"strings"
	"testing"
)

// refused answers what descriptor.Refused answers, a refusal on any of the first lines
// included.
func TestRefusedAgreesWithDescriptor(t *testing.T) {
	var cases []string
	cli, ok := descriptor.CLI()
	if !ok {
		t.Fatal("no CLI")
	}
	for _, marker := range cli.Refusals {
		for n := 0; n < 20; n++ {
			for _, filler := range []string{"line\n", "\n", "  ^\n", "\r\n", "x\r\n"} {
				cases = append(cases, strings.Repeat(filler, n)+marker+" here\nmore\n", strings.Repeat(filler, n)+"  "+marker)
			}
		}
	}
	cases = append(cases, "", "\n", "{}", strings.Repeat("{\n", 10000))
	for _, c := range cases {
		got, want := refused(c), descriptor.Refused(c)
		if (got == nil) != (want == nil) || got != nil && got.Error() != want.Error() {
			t.Errorf("%.80q: got %v, want %v", c, got, want)
		}
	}
}

func FuzzRefusedAgreesWithDescriptor(f *testing.F) {
	f.Add("% Invalid input\n")
	f.Add("\n\n  ^\nERROR: x")
	f.Fuzz(func(t *testing.T, s string) {
		got, want := refused(s), descriptor.Refused(s)
		if (got == nil) != (want == nil) || got != nil && got.Error() != want.Error() {
			t.Errorf("%q: got %v, want %v", s, got, want)
		}
	})
}
