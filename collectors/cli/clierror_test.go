package cli

import (
	"testing"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/platforms"
)

// The refusal markers a session uses are the descriptors': each NOS's own lines are refused,
// and output that only quotes them is not.
func TestCLIFailure(t *testing.T) {
	reg := platforms.Registry()
	var markers []string
	for _, n := range []string{"eos", "nxos"} {
		d, _ := reg.Get(n)
		c, ok := d.CLI()
		if !ok {
			t.Fatalf("%s has no CLI", n)
		}
		markers = append(markers, c.Refusals...)
	}
	for _, tc := range []struct {
		name, out string
		want      bool
	}{
		{"eos invalid", "% Invalid input\n", true},
		{"eos invalid at token", "% Invalid input (at token 1: 'bogus')\n", true},
		{"eos incomplete", "% Incomplete command\n", true},
		{"eos unconverted", "% This is an unconverted command\n", true},
		{"nxos caret first", "                  ^\n% Invalid command at '^' marker.\n", true},
		{"nxos error", "ERROR: No such interface\n", true},
		{"indented", "   % Invalid input\n", true},
		{"json", "{\n    \"version\": \"4.30.1F\"\n}\n", false},
		{"json quoting an error", "{\n  \"msg\": \"ERROR: % Invalid input\"\n}\n", false},
		{"deep log line", "line1\nline2\nline3\nERROR: later, in a log\n", false},
		{"empty", "", false},
		{"text", "Port   Rx   Tx\nEt1    on   off\n", false},
	} {
		if _, got := collectors.Refusal(tc.out, markers); got != tc.want {
			t.Errorf("%s: Refusal(%q) = %v, want %v", tc.name, tc.out, got, tc.want)
		}
	}
}
