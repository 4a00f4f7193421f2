package inventory

import (
	"strings"
)

// ansSSHArgVars are the variables whose OpenSSH options Ansible adds to its ssh command line;
// the later wins where both name a jump host.
var ansSSHArgVars = []string{"ansible_ssh_common_args", "ansible_ssh_extra_args"}

// sshArgsJump reads the jump host of OpenSSH options as Ansible passes them: -J HOST,
// -o ProxyJump=HOST (or "ProxyJump HOST"). proxyCommand reports a ProxyCommand, which is
// not followed. bad is a quote left open.
func sshArgsJump(args string) (jump string, proxyCommand, bad bool) {
	split, err := shellWords(args)
	if err != nil {
		return "", false, true
	}
	words := make([]string, len(split))
	for i, w := range split {
		words[i] = w.text
	}
	option := func(o string) {
		key, val, found := strings.Cut(o, "=")
		if !found {
			key, val, _ = strings.Cut(o, " ")
		}
		switch strings.ToLower(strings.TrimSpace(key)) {
		case "proxyjump":
			jump = strings.TrimSpace(val)
		case "proxycommand":
			proxyCommand = true
		}
	}
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "-J" && i+1 < len(words):
			i++
			jump = words[i]
		case strings.HasPrefix(w, "-J") && len(w) > 2:
			jump = w[2:]
		case w == "-o" && i+1 < len(words):
			i++
			option(words[i])
		case strings.HasPrefix(w, "-o") && len(w) > 2:
			option(w[2:])
		}
	}
	return jump, proxyCommand, false
}
