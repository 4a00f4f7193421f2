// Package fixturename is the one rule by which the switch collectors' tests (EOS, NX-OS,
// SONiC, Cumulus) name the file that holds a command's recorded output. The lab serves the
// same files but keeps its own copy of the rule: it may not import the collectors.
package fixturename

import (
	"regexp"
	"strings"
)

var nonName = regexp.MustCompile(`[^A-Za-z0-9-]+`)

// File is the command with every run of characters other than letters, digits and '-' turned
// into '_', without a leading or trailing '_', plus ".txt" ("show interfaces | json" ->
// "show_interfaces_json.txt").
func File(cmd string) string {
	return strings.Trim(nonName.ReplaceAllString(cmd, "_"), "_") + ".txt"
}
