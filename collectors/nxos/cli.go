package nxos

import (
	"fmt"
	"strings"
)

// cliError returns the CLI's complaint when the output is an NX-OS error message, not data.
// The message may follow a caret line pointing at the bad word.
func cliError(out string) error {
	seen := 0
	for _, l := range strings.Split(out, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || t == "^" {
			continue
		}
		for _, p := range []string{"% ", "ERROR:", "Syntax error", "Invalid command"} {
			if strings.HasPrefix(t, p) {
				return fmt.Errorf("the switch refused the command: %s", t)
			}
		}
		if seen++; seen == 2 {
			break
		}
	}
	return nil
}
