package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// The README's causes example is the broken demo's, as a run prints it today.
func TestREADMECausesExample(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```\n(\\d+ causes explain \\d+ problems\n.*?)\n   \\.\\.\\.\n```").FindStringSubmatch(string(data))
	if m == nil {
		t.Fatal("README has no causes example")
	}
	_, out, errs := run(t, "demo", "--scenario", "broken", "--no-color")
	if !strings.Contains(out, m[1]+"\n") {
		t.Errorf("the README's causes example is not what the broken demo prints; README:\n%s\ndemo:\n%s%s", m[1], out, errs)
	}
}
