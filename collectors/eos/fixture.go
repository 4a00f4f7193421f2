package eos

import "github.com/roceaudit/roceaudit/collectors/internal/fixturename"

// FixtureFile is the file under fixtures/eos/<scenario>/ that holds cmd's output: the command
// with every run of other characters than letters, digits and '-' turned into '_', plus
// ".txt" ("show interfaces | json" -> "show_interfaces_json.txt"). The lab serves the same files.
func FixtureFile(cmd string) string {
	return fixturename.File(cmd)
}
