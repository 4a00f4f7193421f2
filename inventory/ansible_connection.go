package inventory

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

const ansConnection = "ansible_connection"

// ansSSHConnections are the connection plugins that log in over SSH, as roceaudit does, so
// that ansible_port is an SSH port; they may be named with their collection
// (ansible.netcommon.network_cli).
var ansSSHConnections = []string{"ssh", "paramiko", "paramiko_ssh", "smart", "network_cli", "libssh"}

// ansConnKind is how Ansible reaches a host, as far as roceaudit cares.
type ansConnKind int

const (
	connSSH   ansConnKind = iota
	connOther             // httpapi, netconf, winrm, ...: ansible_port is not an SSH port
	connLocal             // the controller itself: not a device to log in to
)

// connection reads the host's ansible_connection, warning (with the host's name and the
// variable's place) about one that is not SSH.
func (a *ansState) connection(h *ansHostEntry, vars map[string]ansVar) ansConnKind {
	v, ok := vars[ansConnection]
	if !ok {
		return connSSH
	}
	n := deref(v.val)
	if n == nil || n.Kind != yaml.ScalarNode || n.Value == "" {
		return connSSH
	}
	if isTemplate(n.Value) {
		a.p.warnf(v.val, "host %q: %s %q is a Jinja template, which roceaudit does not evaluate: assuming ssh", h.name, ansConnection, n.Value)
		return connSSH
	}
	plugin := strings.ToLower(n.Value)
	plugin = plugin[strings.LastIndexByte(plugin, '.')+1:]
	switch {
	case slices.Contains(ansSSHConnections, plugin):
		return connSSH
	case plugin == "local":
		a.p.warnf(v.val, "host %q left out: %s %s is the Ansible controller itself, not a device to log in to (give it %s: ssh to audit it over SSH)",
			h.name, ansConnection, n.Value, ansConnection)
		return connLocal
	}
	msg := fmt.Sprintf("host %q: %s %s is not SSH; roceaudit logs in over SSH all the same, to the usual SSH port (%sport sets another)", h.name, ansConnection, n.Value, roceauditVarPrefix)
	if p, ok := pickVar(vars, ansPortVars); ok {
		msg += fmt.Sprintf(" (%s at %s is ignored)", p.key.Value, a.p.lineOf(p.key, v.val))
	} else if h.port != nil {
		msg += fmt.Sprintf(" (port %d of %q is ignored)", h.portNum, h.port.Value)
	}
	a.p.warnf(v.val, "%s", msg)
	return connOther
}
