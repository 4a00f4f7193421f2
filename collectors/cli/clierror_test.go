package cli

import "testing"

func TestCLIFailure(t *testing.T) {
	eos := []string{"% Ambiguous command", "% Error", "% Incomplete command", "% Invalid input",
		"% Cannot commit", "% Unavailable command"}
	markers := append(eos, "ERROR:")
	markers = append(markers, extraFailures...)
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
		if got := cliFailure(tc.out, markers); got != tc.want {
			t.Errorf("%s: cliFailure(%q) = %v, want %v", tc.name, tc.out, got, tc.want)
		}
	}
}
