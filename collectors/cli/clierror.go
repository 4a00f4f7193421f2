package cli

import "strings"

// extraFailures complete the scrapligo platform lists: any "% Invalid …" line (EOS "% Invalid
// input", NX-OS "% Invalid command at '^' marker." / "% Invalid input detected"), and EOS's
// answer to "| json" on a command without a JSON model, "% This is an unconverted command".
var extraFailures = []string{"% Invalid", "% This is an unconverted command"}

// failureLines is how many leading non-empty lines may hold the complaint: NX-OS puts a
// caret line ("    ^") first, and a warning may precede it.
const failureLines = 3

// cliFailure reports whether out is the CLI refusing a command rather than its output.
// scrapligo's own Response.Failed matches its failed-when-contains strings anywhere in the
// output, so a JSON field or a log line quoting "ERROR:" would fail a good command; here a
// marker must start one of the first lines instead.
func cliFailure(out string, markers []string) bool {
	seen := 0
	for _, line := range strings.Split(out, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.Trim(t, "^ ") == "" {
			continue
		}
		for _, m := range markers {
			if strings.HasPrefix(t, m) {
				return true
			}
		}
		if seen++; seen == failureLines {
			break
		}
	}
	return false
}
