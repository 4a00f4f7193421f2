package inventory

import (
	"fmt"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

// ansAddress is roceaudit's own address variable: it wins over ansible_host, which is often
// a Jinja template only Ansible can evaluate.
const ansAddress = roceauditVarPrefix + "address"

// hostnameTemplate is the one template resolved here: `{{ inventory_hostname }}`, alone or
// with a .domain after it, which is Ansible's magic variable for the host's own name.
var hostnameTemplate = regexp.MustCompile(`^\{\{-?\s*inventory_hostname\s*-?\}\}((?:\.[A-Za-z0-9_-]+)*)$`)

// address is where the host is reached: roceaudit_address, else ansible_host (or
// ansible_ssh_host), else its name. A template other than the host's name is an error
// unless the --defaults overlay gives the device an address, which wins over all of them.
func (a *ansState) address(h *ansHostEntry, vars map[string]ansVar) (string, *yaml.Node, bool) {
	v, ok := vars[ansAddress]
	if !ok {
		v, ok = pickVar(vars, ansHostVars)
	}
	if !ok {
		return h.name, h.key, true
	}
	key := v.key.Value
	if n := deref(v.val); n != nil && n.Kind == yaml.ScalarNode && n.Tag != "!vault" && isTemplate(n.Value) {
		if m := hostnameTemplate.FindStringSubmatch(strings.TrimSpace(n.Value)); m != nil {
			return h.name + m[1], v.val, true
		}
		if a.p.ov.address(h.name) != nil {
			return h.name, v.val, true // the overlay's address replaces it
		}
		how := fmt.Sprintf("set %s on the host, or give it an address in the --defaults overlay (devices: {%s: {address: ...}})", ansAddress, h.name)
		if key == ansAddress {
			how = fmt.Sprintf("set it to a plain value, or give the host an address in the --defaults overlay (devices: {%s: {address: ...}})", h.name)
		}
		a.p.errorfOnce(v.val, "host %q: %s: %q is a Jinja template, which roceaudit does not evaluate (only {{ inventory_hostname }}, alone or with a .domain after it): %s",
			h.name, key, n.Value, how)
		return "", nil, false
	}
	s, ok := a.p.ansString(v.val, key)
	return s, v.val, ok
}

func isTemplate(s string) bool {
	return strings.Contains(s, "{{") || strings.Contains(s, "{%")
}

// connVar is the winning one of names, the Ansible spellings of the connection setting key;
// a Jinja template in it is passed over when roceaudit_KEY or the overlay's devices: sets
// key instead, and is an error that says so otherwise.
func (a *ansState) connVar(h *ansHostEntry, vars map[string]ansVar, names []string, key string) (ansVar, bool) {
	v, ok := pickVar(vars, names)
	if !ok {
		return v, false
	}
	n := deref(v.val)
	if n == nil || n.Kind != yaml.ScalarNode || n.Tag == "!vault" || !isTemplate(n.Value) {
		return v, true
	}
	override := roceauditVarPrefix + key
	if _, set := vars[override]; set || a.p.ov.sets(h.name, key) {
		return v, false
	}
	a.p.errorfOnce(v.val, "host %q: %s: %q is a Jinja template, which roceaudit does not evaluate: set %s on the host, or give it %s in the --defaults overlay (devices: {%s: {%s: ...}})",
		h.name, v.key.Value, n.Value, override, key, h.name, key)
	return v, false
}
