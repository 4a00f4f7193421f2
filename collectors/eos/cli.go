package eos

import (
	"fmt"
	"strings"
)

// cliErrors are the EOS CLI failure prefixes (scrapligo's arista_eos failed-when-contains).
var cliErrors = []string{"% Ambiguous command", "% Error", "% Incomplete command", "% Invalid input", "% Unavailable command", "% Cannot commit"}

// cliError returns the CLI's complaint when the output is an EOS error message, not data.
func cliError(out string) error {
	s := strings.TrimSpace(out)
	for _, p := range cliErrors {
		if strings.HasPrefix(s, p) {
			line, _, _ := strings.Cut(s, "\n")
			return fmt.Errorf("the switch refused the command: %s", strings.TrimSpace(line))
		}
	}
	return nil
}
