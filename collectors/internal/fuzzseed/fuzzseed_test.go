package fuzzseed

import (
	"encoding/json"
	"testing"
)

// A miniature keeps the first members of each collection of collections, with every other
// byte as it was written, and stays valid JSON.
func TestMiniJSONKeepsTheBytesOfWhatItKeeps(t *testing.T) {
	s := "{\n  \"rows\": [ {\"a\": 1}, {\"a\": 2},\n {\"a\": 3} ],\n  \"n\": 3 }\n"
	got := MiniJSON(s, 1, 0)
	if want := "{\n  \"rows\": [ {\"a\": 1} ],\n  \"n\": 3 }\n"; got != want {
		t.Errorf("MiniJSON = %q, want %q", got, want)
	}
	if !json.Valid([]byte(got)) {
		t.Errorf("%q is not JSON", got)
	}
	if got := MiniJSON("[1, 2, 3]", 1, 0); got != "[1, 2, 3]" {
		t.Errorf("an array of numbers was cut: %q", got)
	}
	if got := MiniJSON("not json", 1, 0); got != "not json" {
		t.Errorf("not JSON: %q", got)
	}
}

// The variants of a JSON text are its edge cases: some still JSON, some not at all (the fast
// paths must decline those as the decoder does).
func TestJSONVariants(t *testing.T) {
	s := `{"name": "Ethernet1", "mtu": 9214}`
	v := JSONVariants(s, 8)
	invalid := 0
	for _, x := range v {
		if !json.Valid([]byte(x)) {
			invalid++
		}
	}
	if len(v) < 5 || invalid == 0 || invalid == len(v) {
		t.Errorf("%d variants, %d invalid: want several, of both kinds", len(v), invalid)
	}
}
