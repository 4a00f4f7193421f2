package sshclient

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/roceaudit/roceaudit/inventory"
)

// maxLocalProblems bounds CheckLocal's report: a typo in defaults: would otherwise repeat
// for every device.
const maxLocalProblems = 5

// CheckLocal reads, for every device, what a dial reads on this machine before it connects:
// ~/.ssh/config, the known_hosts file and the credentials. A mistake there (a typo in
// identity_file, a known_hosts that is a directory, no credential at all) would otherwise
// fail every device as unreachable, an incomplete audit, when it is an input error that
// nothing needs to be sent to find. Each distinct setting is read once.
func CheckLocal(inv *inventory.Inventory, tofu bool) error {
	seen := map[string]bool{} // problems and settings already judged
	var problems []string
	more := 0
	note := func(spec inventory.DeviceSpec, err error) {
		msg := err.Error()
		if seen["problem\x00"+msg] {
			return
		}
		seen["problem\x00"+msg] = true
		if len(problems) == maxLocalProblems {
			more++
			return
		}
		where := "device " + spec.Name
		if inv.File != "" && spec.Line > 0 {
			where = fmt.Sprintf("%s:%d: %s", inv.File, spec.Line, where)
		}
		problems = append(problems, where+": "+msg)
	}
	for _, spec := range inv.Devices {
		r, err := resolve(ConfigFor(spec, nil, tofu))
		if err != nil {
			note(spec, err)
			continue
		}
		if k := "known_hosts\x00" + r.KnownHostsFile; !seen[k] {
			seen[k] = true
			if err := checkKnownHosts(r.KnownHostsFile, tofu); err != nil {
				note(spec, err)
			}
		}
		if k := "auth\x00" + r.IdentityFile + "\x00" + r.PasswordEnv; !seen[k] {
			seen[k] = true
			a, err := buildAuth(r)
			if err != nil {
				note(spec, err)
				continue
			}
			a.close()
		}
	}
	if len(problems) == 0 {
		return nil
	}
	if more > 0 {
		problems = append(problems, fmt.Sprintf("and %d more", more))
	}
	return fmt.Errorf("this machine's SSH settings would fail devices before any connection:\n  %s", strings.Join(problems, "\n  "))
}

// checkKnownHosts is whether the known_hosts file can check host keys: what a dial reads
// (newHostKeys), and besides it must be a file, and exist unless trust on first use may
// create it.
func checkKnownHosts(file string, tofu bool) error {
	st, err := os.Stat(file)
	switch {
	case err == nil && !st.Mode().IsRegular():
		return fmt.Errorf("known_hosts %s is not a regular file (%s)", file, st.Mode().Type())
	case errors.Is(err, fs.ErrNotExist) && !tofu:
		return fmt.Errorf("known_hosts %s does not exist, so every host key would be unknown: "+
			"add the devices' keys (ssh-keyscan, verified out of band) or run once with --trust-on-first-use", file)
	}
	_, err = newHostKeys(file, tofu)
	return err
}
