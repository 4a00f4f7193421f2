package topology

import (
	"fmt"
	"regexp"
	"strings"
)

var safeName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.:@/-]{0,63}$`)

// ValidName rejects names that could change a command line: shell metacharacters, spaces,
// path traversal. Interface and device names from inventories and devices pass through it.
func ValidName(name string) error {
	if !safeName.MatchString(name) || strings.Contains(name, "..") {
		return fmt.Errorf("name %q is not a safe interface or device name (letters, digits and _.:@/- only)", name)
	}
	return nil
}
