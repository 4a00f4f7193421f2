package natural

import (
	"slices"
	"strings"
	"testing"
)

func TestLess(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"Ethernet2", "Ethernet10", true},
		{"Ethernet10", "Ethernet2", false},
		{"Ethernet1/2", "Ethernet1/10", true},                // every run counts, not just the first
		{"Ethernet1/10", "Ethernet2/1", true},                // the first run decides first
		{"swp9", "swp10s0", true},                            // breakout suffixes follow the number
		{"swp10s0", "swp10s1", true},                         //
		{"Ethernet", "Ethernet0", true},                      // a prefix sorts first
		{"Ethernet4", "Port-Channel1", true},                 // letters compare byte by byte
		{"port-channel1", "Ethernet1", false},                // upper case before lower case, as bytes
		{"Ethernet01", "Ethernet1", false},                   // same number, same rest: equal
		{"Ethernet1", "Ethernet01", false},                   //
		{"Ethernet01x", "Ethernet1", false},                  // same number, longer rest sorts later
		{"a", "a", false},                                    //
		{"", "a", true},                                      //
		{"", "", false},                                      //
		{"Ethernet99999999999999999999", "Ethernet2", false}, // beyond int: the largest int
	} {
		if got := (Order{}).Less(tc.a, tc.b); got != tc.want {
			t.Errorf("Less(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// Two runs beyond int's range both read as the largest int: the rest decides.
func TestLessOverflowingRunsCompareEqual(t *testing.T) {
	a, b := "x"+strings.Repeat("9", 25)+"a", "x"+strings.Repeat("8", 25)+"b"
	if !(Order{}).Less(a, b) || (Order{}).Less(b, a) {
		t.Errorf("%q < %q should hold (equal numbers, then a < b)", a, b)
	}
}

// With MaxDigits the collectors that always capped digit runs keep their order: a
// ten-digit run reads as a nine-digit number followed by a one-digit one.
func TestMaxDigits(t *testing.T) {
	long, short := "Ethernet1234567890", "Ethernet999999999"
	if (Order{}).Less(long, short) {
		t.Errorf("whole runs: %s is the larger number", long)
	}
	capped := Order{MaxDigits: 9}
	if !capped.Less(long, short) {
		t.Errorf("MaxDigits 9: 123456789 < 999999999, so %s sorts first", long)
	}
	if !capped.Less("swp2", "swp10") || capped.Less("swp10", "swp2") {
		t.Error("MaxDigits 9 must still order short runs as numbers")
	}
	// The cap splits a run: 1234567890 reads as 123456789, 0 and 1234567891 as 123456789, 1.
	if !capped.Less("p1234567890", "p1234567891") {
		t.Error("capped runs: the second chunk decides")
	}
}

func TestCompare(t *testing.T) {
	o := Order{}
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"Ethernet2", "Ethernet10", -1},
		{"Ethernet10", "Ethernet2", 1},
		{"Ethernet1", "Ethernet1", 0},
		{"Ethernet01", "Ethernet1", 0},
	} {
		if got := o.Compare(tc.a, tc.b); got != tc.want {
			t.Errorf("Compare(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestSort(t *testing.T) {
	got := []string{"Ethernet10", "Ethernet2/1", "Ethernet1", "Ethernet2", "Ethernet2/10", "Ethernet2/2"}
	Order{}.Sort(got)
	want := []string{"Ethernet1", "Ethernet2", "Ethernet2/1", "Ethernet2/2", "Ethernet2/10", "Ethernet10"}
	if !slices.Equal(got, want) {
		t.Errorf("Sort = %q, want %q", got, want)
	}
	got = []string{"swp10", "swp1", "swp2"}
	slices.SortFunc(got, Order{MaxDigits: 9}.Compare)
	if want := []string{"swp1", "swp2", "swp10"}; !slices.Equal(got, want) {
		t.Errorf("SortFunc(Compare) = %q, want %q", got, want)
	}
}
