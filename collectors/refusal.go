package collectors

import "strings"

// refusalLines is how many leading non-empty lines may hold a CLI's complaint: NX-OS puts a
// caret line ("    ^") first, and a warning may precede it.
const refusalLines = 3

// Refusal returns the line of out that is the CLI refusing a command, when one of the first
// lines starts with one of markers (a platform's CLI.Refusals). Only the first lines count: a
// JSON field or a log line quoting "ERROR:" further down is output, not a refusal.
func Refusal(out string, markers []string) (string, bool) {
	seen := 0
	// Line by line without splitting out: a reply is checked whole, and EOS's indented JSON
	// made strings.Split a slice of every line of a 248-port leaf's 190 kB reply to read three.
	for rest, more := out, true; more; {
		var line string
		line, rest, more = strings.Cut(rest, "\n")
		t := strings.TrimSpace(line)
		if t == "" || strings.Trim(t, "^ ") == "" {
			continue
		}
		for _, m := range markers {
			if strings.HasPrefix(t, m) {
				return t, true
			}
		}
		if seen++; seen == refusalLines {
			break
		}
	}
	return "", false
}
