// Package loginshell is what the lab's Linux-based switches (lab/sonic, lab/cumulus) share as
// login shells answering SSH exec: reading a command line the way the collectors send it and
// bash's answer for a command that is not there.
package loginshell

import (
	"strings"

	"github.com/roceaudit/roceaudit/collectors"
)

// Split reads a command line into its words; blanks between words do not matter, and a
// leading "sudo -n " is accepted and reported.
func Split(cmd string) (argv []string, sudo bool) {
	line, sudo := strings.CutPrefix(strings.TrimSpace(cmd), collectors.SudoPrefix)
	return strings.Fields(line), sudo
}

// NotFound is what bash (or sudo, which looks the command up itself) says for a command that
// is not there.
func NotFound(name string, sudo bool) (stdout, stderr string, exit int) {
	if sudo {
		return "", "sudo: " + name + ": command not found\n", 1
	}
	return "", "bash: line 1: " + name + ": command not found\n", 127
}
