package nosfmt

import "testing"

func TestDottedMAC(t *testing.T) {
	for in, want := range map[string]string{
		"0c:42:a1:b2:c3:d0":       "0c42.a1b2.c3d0",
		"0C-42-A1-B2-C3-D0":       "0c42.a1b2.c3d0",
		"gpu01":                   "gpu01",
		"00:00:00:00:fe:80:00:00": "00:00:00:00:fe:80:00:00", // EUI-64: not a 6-byte MAC
	} {
		if got := DottedMAC(in); got != want {
			t.Errorf("DottedMAC(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestList(t *testing.T) {
	if got := List([8]bool{0: true, 3: true}, "-"); got != "0,3" {
		t.Errorf("List = %q, want 0,3", got)
	}
	if got := List([8]bool{}, "-"); got != "-" {
		t.Errorf("List of none = %q, want the given -", got)
	}
}
