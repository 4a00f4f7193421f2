package inventory

import (
	"cmp"
	"fmt"

	"slices"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/topology"
	"gopkg.in/yaml.v3"
)

// An Ansible inventory read as an inventory: every host of every group is a device, with
// Ansible's variable precedence. The three formats Ansible itself reads for a static
// inventory are detected from the content, as Ansible's plugins do: YAML (the
// ansible.builtin.yaml plugin), INI (ansible.builtin.ini) and the JSON of
// `ansible-inventory --list`.

// Variables the import reads; every other ansible_ variable is checked against
// ansibleKnownVars, and variables of other names are the playbooks' business.
const (
	ansHost      = "ansible_host"
	ansUser      = "ansible_user"
	ansPort      = "ansible_port"
	ansKey       = "ansible_ssh_private_key_file"
	ansBecome    = "ansible_become"
	ansNetworkOS = "ansible_network_os"
	ansPriority  = "ansible_group_priority"
	ansPlatform  = "roceaudit_platform" // overrides ansible_network_os; none leaves the host out
)

// ansibleWhat names an Ansible inventory in messages.
const ansibleWhat = "Ansible inventory"

// LoadAnsible reads an Ansible inventory as an inventory; see Open.
func LoadAnsible(path string, platforms Platforms) (*Inventory, error) {
	return loadAnsible(path, platforms, processEnv(), nil, Options{})
}

func loadAnsible(path string, platforms Platforms, env inventoryEnv, ov *overlay, opts Options) (*Inventory, error) {
	data, err := readImport(path, ansibleWhat)
	if err != nil {
		return nil, err
	}
	return parseAnsibleWith(path, data, platforms, env, ov, opts)
}

// ParseAnsible reads Ansible inventory data as if from file (errors name it; a relative
// ansible_ssh_private_key_file resolves against its directory).
func ParseAnsible(file string, data []byte, platforms Platforms) (*Inventory, error) {
	return parseAnsible(file, data, platforms, processEnv())
}

func parseAnsible(file string, data []byte, platforms Platforms, env inventoryEnv) (*Inventory, error) {
	return parseAnsibleWith(file, data, platforms, env, nil, Options{})
}

func parseAnsibleWith(file string, data []byte, platforms Platforms, env inventoryEnv, ov *overlay, opts Options) (*Inventory, error) {
	p, err := newImportParser(file, platforms, env)
	if err != nil {
		return nil, err
	}
	p.ov, p.opts = ov, opts
	inv, extra := p.ansible(data)
	return p.result(inv, extra)
}

type ansGroup struct {
	name     string
	vars     map[string]field // a group defined twice merges, the later value winning
	fileVars map[string]field // from group_vars/, over every group's vars in the inventory
	parents  []string
	depth    int
	priority int
}

type ansHostEntry struct {
	name     string
	key      *yaml.Node // first mention, where errors about the host point
	vars     map[string]field
	fileVars map[string]field // from host_vars/, over vars in the inventory
	port     *yaml.Node       // host:port in the host's name
	portNum  int
	groups   []string // groups that list it directly
	hasGroup map[string]bool
}

type ansState struct {
	p      *importParser
	groups map[string]*ansGroup
	hosts  map[string]*ansHostEntry
	order  []string // hosts in order of first mention
}

func newAnsState(p *importParser) *ansState {
	a := &ansState{p: p, groups: map[string]*ansGroup{}, hosts: map[string]*ansHostEntry{}}
	a.group("all")
	return a
}

func (p *importParser) ansible(data []byte) (*Inventory, error) {
	a := newAnsState(p)
	var root *yaml.Node
	switch ansibleFormat(data) {
	case "json":
		root = a.readJSON(data)
	case "ini":
		root = a.readINI(data)
	default:
		root = a.readYAML(data)
	}
	if root == nil {
		return nil, nil
	}
	a.depths()
	a.readVarsDirs()
	var devs []importedDevice
	for _, name := range a.order {
		if g, isGroup := a.groups[name]; isGroup && g.name != "all" && g.name != "ungrouped" {
			// Ansible warns of it too: usually a [parent] section that lacks :children.
			p.warnf(a.hosts[name].key, "host %q has the name of a group: a section that lists groups needs :children ([parent:children])", name)
		}
		if d, ok := a.device(a.hosts[name]); ok {
			devs = append(devs, d)
		}
	}
	return p.inventory(root, devs, nil, "no hosts to audit: no group lists a host, or every host is left out (by roceaudit_platform: none, ansible_connection: local, which is the Ansible controller itself, or an ansible_network_os roceaudit does not audit)")
}

// readYAML reads the ansible.builtin.yaml format into a.
func (a *ansState) readYAML(data []byte) *yaml.Node {
	p := a.p
	const format = "an Ansible inventory (YAML: all: with hosts:, children: and vars:; INI; or ansible-inventory --list JSON)"
	root := p.document(data, "Ansible inventory", format)
	if root == nil {
		return nil
	}
	if r := deref(root); r.Kind != yaml.MappingNode {
		p.errorf(root, "not an Ansible YAML inventory: the file holds %s (expected a mapping of groups, e.g. all: {children: {leaves: {hosts: {leaf1: }}}})", describe(root))
		return nil
	}
	top, _ := p.entries(root, "the Ansible inventory")
	if f, ok := top.get("plugin"); ok {
		p.errorf(f.key, "an inventory plugin configuration, not an Ansible YAML inventory: export the hosts with `ansible-inventory -i FILE --list`")
		return nil
	}
	for _, f := range top.list {
		parent := "all"
		if f.key.Value == "all" {
			parent = ""
		}
		a.parseGroup(f.key.Value, f.key, f.val, parent)
	}
	return root
}

func (a *ansState) group(name string) *ansGroup {
	g, ok := a.groups[name]
	if !ok {
		g = &ansGroup{name: name, vars: map[string]field{}, priority: 1}
		a.groups[name] = g
	}
	return g
}

// parseGroup reads one group's hosts:, vars: and children:, nested to any depth.
func (a *ansState) parseGroup(name string, key, data *yaml.Node, parent string) {
	p := a.p
	g := a.group(name)
	if parent != "" && !a.addParent(g, parent, key) {
		return
	}
	if isNull(data) {
		return
	}
	what := fmt.Sprintf("group %q", name)
	gf, ok := p.entries(data, what)
	if !ok {
		return
	}
	for _, f := range gf.list {
		switch f.key.Value {
		case "vars":
			if isNull(f.val) {
				continue
			}
			if vars, ok := p.entries(f.val, what+" vars"); ok {
				for _, v := range vars.list {
					g.vars[v.key.Value] = v
				}
			}
		case "children":
			for _, c := range a.section(f.val, what+" children", "group") {
				a.parseGroup(c.key.Value, c.key, c.val, name)
			}
		case "hosts":
			for _, h := range a.section(f.val, what+" hosts", "host") {
				a.parseHost(g, h)
			}
		default:
			p.errorf(f.key, "unknown key %q in %s (expected hosts, vars or children; a host goes under hosts:, a subgroup under children:)", f.key.Value, what)
		}
	}
}

// section reads hosts: or children:, a mapping of names; Ansible also takes a single name.
func (a *ansState) section(n *yaml.Node, what, item string) []field {
	v := deref(n)
	switch {
	case isNull(n):
		return nil
	case v.Kind == yaml.ScalarNode:
		return []field{{key: v, val: nil}}
	case v.Kind == yaml.SequenceNode:
		a.p.errorf(n, "%s: expected a mapping of %s names (name: on its own line, with a colon), got a list", what, item)
		return nil
	}
	f, _ := a.p.entries(n, what)
	return f.list
}

// addParent records parent as a parent of g; a loop is refused, as Ansible does.
func (a *ansState) addParent(g *ansGroup, parent string, at *yaml.Node) bool {
	if slices.Contains(g.parents, parent) {
		return true
	}
	if parent == g.name || a.isAncestor(g.name, parent) {
		a.p.errorf(at, "group %q under %q makes a loop (%q already contains %q)", g.name, parent, g.name, parent)
		return false
	}
	g.parents = append(g.parents, parent)
	return true
}

// isAncestor is true when anc is a parent of g, or a parent of a parent, and so on.
func (a *ansState) isAncestor(anc, g string) bool {
	for _, p := range a.group(g).parents {
		if p == anc || a.isAncestor(anc, p) {
			return true
		}
	}
	return false
}

func (a *ansState) parseHost(g *ansGroup, f field) {
	p := a.p
	names, port, err := expandHostPattern(f.key.Value)
	if err != nil {
		p.errorf(f.key, "hosts: %v", err)
		return
	}
	var vars fields
	if !isNull(f.val) {
		var ok bool
		if vars, ok = p.entries(f.val, fmt.Sprintf("host %q", f.key.Value)); !ok {
			return
		}
	}
	for _, name := range names {
		h, ok := a.hosts[name]
		if !ok {
			h = &ansHostEntry{name: name, key: f.key, vars: map[string]field{}, hasGroup: map[string]bool{}}
			a.hosts[name] = h
			a.order = append(a.order, name)
		}
		if !h.hasGroup[g.name] {
			h.hasGroup[g.name] = true
			h.groups = append(h.groups, g.name)
		}
		if port > 0 {
			h.port, h.portNum = f.key, port
		}
		for _, v := range vars.list {
			h.vars[v.key.Value] = v
		}
	}
}

// depths sets every group's depth (all is 0, a child is one deeper than its deepest parent)
// and priority, which order group variables as Ansible merges them.
func (a *ansState) depths() {
	memo := map[string]int{}
	var depth func(string) int
	depth = func(name string) int {
		if d, ok := memo[name]; ok {
			return d
		}
		d := 0
		for _, p := range a.groups[name].parents {
			d = max(d, depth(p)+1)
		}
		memo[name] = d
		return d
	}
	for name, g := range a.groups {
		g.depth = depth(name)
		if f, ok := g.vars[ansPriority]; ok {
			if v, ok := a.p.integer(f.val, ansPriority, -1<<31, 1<<31-1, "an integer"); ok {
				g.priority = v
			}
		}
	}
}

// hostGroups is every group h belongs to, directly or through a child group, in Ansible's
// merge order: by depth, then ansible_group_priority, then name; later ones win.
func (a *ansState) hostGroups(h *ansHostEntry) []*ansGroup {
	seen := map[string]bool{}
	var out []*ansGroup
	var add func(string)
	add = func(name string) {
		if seen[name] {
			return
		}
		seen[name] = true
		g := a.groups[name]
		out = append(out, g)
		for _, p := range g.parents {
			add(p)
		}
	}
	add("all")
	for _, g := range h.groups {
		add(g)
	}
	slices.SortFunc(out, func(x, y *ansGroup) int {
		return cmp.Or(cmp.Compare(x.depth, y.depth), cmp.Compare(x.priority, y.priority), cmp.Compare(x.name, y.name))
	})
	return out
}

// ansVar is a variable's winning value and where it came from.
type ansVar struct {
	field
	group    string // "" for a host variable
	fromFile bool   // from group_vars/ or host_vars/
}

// hostVars merges h's variables in Ansible's order, later ones winning: every group's vars
// in the inventory, group_vars/all, the other groups' group_vars/ files, the host's vars in
// the inventory, its host_vars/ file. Groups go in hostGroups' order in each layer.
func hostVars(h *ansHostEntry, groups []*ansGroup) map[string]ansVar {
	vars := map[string]ansVar{}
	for _, g := range groups {
		for k, f := range g.vars {
			vars[k] = ansVar{field: f, group: g.name}
		}
	}
	for _, all := range []bool{true, false} {
		for _, g := range groups {
			if (g.name == "all") != all {
				continue
			}
			for k, f := range g.fileVars {
				vars[k] = ansVar{field: f, group: g.name, fromFile: true}
			}
		}
	}
	for k, f := range h.vars {
		vars[k] = ansVar{field: f}
	}
	for k, f := range h.fileVars {
		vars[k] = ansVar{field: f, fromFile: true}
	}
	return vars
}

// device resolves h's variables and turns them into a device.
func (a *ansState) device(h *ansHostEntry) (importedDevice, bool) {
	p := a.p
	what := fmt.Sprintf("host %q", h.name)
	if err := validDeviceName(h.name); err != nil {
		p.errorf(h.key, "hosts: %v", err)
		return importedDevice{}, false
	}
	groups := a.hostGroups(h)
	vars := hostVars(h, groups)

	platform, at, ok := a.platform(h, groups, vars)
	if !ok || platform == platformNone {
		return importedDevice{}, false
	}
	role, ok := p.roleOf(platform, at, what)
	if !ok {
		return importedDevice{}, false
	}
	a.checkVars(vars)
	connKind := a.connection(h, vars)
	if connKind == connLocal {
		return importedDevice{}, false
	}
	d := importedDevice{at: h.key, spec: DeviceSpec{Name: h.name, Role: role, Platform: platform, Address: h.name, Line: h.key.Line}}
	for _, g := range groups {
		d.groups = append(d.groups, g.name)
	}
	if addr, at, ok := a.address(h, vars); ok {
		d.spec.Address = addr
		if err := validAddress(addr); err != nil {
			p.errorfOnce(at, "%s: address: %v", what, err)
		}
	}

	if v, ok := a.connVar(h, vars, ansUserVars, "user"); ok {
		if s, ok := p.ansString(v.val, v.key.Value); ok {
			if safeWord(s) {
				d.conn.User = &s
			} else {
				p.errorfOnce(v.val, "%s: %q is not a user name (expected no spaces and no leading -)", v.key.Value, s)
			}
		}
	}
	// A port in the host's name is a host variable set before the host's own ones; neither is
	// an SSH port when Ansible does not use SSH (connection warned that they are ignored).
	switch v, ok := a.connVar(h, vars, ansPortVars, "port"); {
	case connKind != connSSH:
	case ok && (v.group == "" || h.port == nil):
		if port, ok := p.ansPort(v.val); ok {
			d.conn.Port = &port
		}
	case h.port != nil:
		d.conn.Port = &h.portNum
	}
	if v, ok := a.connVar(h, vars, ansKeyVars, "identity_file"); ok {
		if s, ok := p.ansString(v.val, v.key.Value); ok {
			if path, err := p.resolvePath(s); err != nil {
				p.errorfOnce(v.val, "%s: %v", v.key.Value, err)
			} else {
				d.conn.IdentityFile = &path
			}
		}
	}
	for _, name := range ansSSHArgVars { // a bastion, as Ansible users give one
		v, ok := vars[name]
		if !ok {
			continue
		}
		s, ok := p.ansString(v.val, name)
		if !ok {
			continue
		}
		switch jump, proxyCommand, bad := sshArgsJump(s); {
		case bad:
			p.warnf(v.val, "%s: a quote is left open; its options are not read", name)
		case jump != "" && safeWord(jump):
			d.conn.Jump = &jump
		case jump != "":
			p.warnf(v.val, "%s: the jump host %q is not [user@]host[:port]; set roceaudit_jump", name, jump)
		case proxyCommand:
			p.warnf(v.val, "%s: a ProxyCommand is not followed: roceaudit connects directly, or through a jump host (-J or ProxyJump here, or roceaudit_jump)", name)
		}
	}
	if v, ok := a.connVar(h, vars, []string{ansBecome}, "sudo"); ok {
		if b, ok := p.ansBool(v.val, ansBecome); ok {
			// Become is sudo only on a Linux host with the sudo method: EOS and NX-OS
			// inventories say become with the enable method, which roceaudit's show commands
			// do not need, and sudo -n before them would fail every command.
			method := "sudo"
			if m, ok := vars["ansible_become_method"]; ok {
				if s, ok := p.ansString(m.val, "ansible_become_method"); ok {
					method = s
				}
			}
			if !b || (role == topology.RoleHost && method == "sudo") {
				d.conn.Sudo = &b
			} else {
				p.warnf(v.val, "%s (become method %s) is not used for %s devices: roceaudit's commands are read-only and take sudo on Linux hosts only (roceaudit_sudo sets it)",
					ansBecome, method, platform)
			}
		}
	}
	d.conn = d.conn.over(a.roceauditConn(vars))
	return d, true
}

// platform is the host's platform: roceaudit_platform, else ansible_network_os mapped, else
// linux. Groups that are not parent and child must agree on it.
func (a *ansState) platform(h *ansHostEntry, groups []*ansGroup, vars map[string]ansVar) (string, *yaml.Node, bool) {
	p := a.p
	what := fmt.Sprintf("host %q", h.name)
	resolve := func(key string, n *yaml.Node) (string, bool) {
		s, ok := p.ansString(n, key)
		if !ok || key == ansPlatform {
			return s, ok
		}
		platform, values, ok := ansiblePlatform(p.platforms, s)
		if ok {
			return platform, true
		}
		// Left out, as containerlab's unknown kinds and NetBox's unknown platforms are: one
		// firewall or OOB switch in an inventory must not stop the audit of the fabric.
		p.warnf(n, "%s left out: %s %q is not one roceaudit audits (%s; %s: PLATFORM audits it as one of them)",
			what, key, s, strings.Join(values, ", "), ansPlatform)
		return platformNone, true
	}
	for _, key := range []string{ansPlatform, ansNetworkOS} {
		v, set := vars[key]
		if !set {
			continue
		}
		if v.group != "" && !a.agree(h, key, v.fromFile, groups, resolve) {
			return "", nil, false
		}
		platform, ok := resolve(key, v.val)
		return platform, v.val, ok
	}
	return defaultHostPlatform, h.key, true
}

// agree checks that the groups setting key for h, other than those a child group overrides,
// give one platform (Ansible would pick one by group name, silently). Only the layer the
// winning value is in counts (group_vars/ files, or the inventory's group vars).
func (a *ansState) agree(h *ansHostEntry, key string, fromFile bool, groups []*ansGroup, resolve func(string, *yaml.Node) (string, bool)) bool {
	layer := func(g *ansGroup) map[string]field {
		if fromFile {
			return g.fileVars
		}
		return g.vars
	}
	var setters []*ansGroup
	for _, g := range groups {
		if _, ok := layer(g)[key]; ok {
			setters = append(setters, g)
		}
	}
	type claim struct {
		group    string
		val      *yaml.Node
		platform string
	}
	var claims []claim
	for _, g := range setters {
		if slices.ContainsFunc(setters, func(c *ansGroup) bool { return a.isAncestor(g.name, c.name) }) {
			continue // a child group's value wins over this one
		}
		val := layer(g)[key].val
		platform, ok := resolve(key, val)
		if !ok {
			return false
		}
		claims = append(claims, claim{g.name, val, platform})
	}
	p := a.p
	slices.SortFunc(claims, func(x, y claim) int {
		return byPlace(p.file, p.fileOf(x.val), x.val.Line, x.val.Column, p.fileOf(y.val), y.val.Line, y.val.Column)
	})
	for _, c := range claims[1:] {
		if first := claims[0]; c.platform != first.platform {
			p.errorf(c.val, "host %q is in groups %q (%s) and %q, which give it different platforms (%s: %s and %s); set %s on the host, or %s",
				h.name, first.group, p.lineOf(first.val, c.val), c.group, key, first.platform, c.platform, key, ansPlatform)
			return false
		}
	}
	return true
}

// ansString reads a variable roceaudit uses, refusing what only Ansible could evaluate.
func (p *importParser) ansString(n *yaml.Node, key string) (string, bool) {
	v := deref(n)
	switch {
	case v == nil || v.Kind != yaml.ScalarNode:
		p.errorfOnce(n, "%s: expected a string, got %s", key, describe(n))
		return "", false
	case v.Tag == "!vault":
		p.errorfOnce(n, "%s: encrypted with ansible-vault, which roceaudit cannot decrypt (set it in plain text, or in ~/.ssh/config)", key)
		return "", false
	case v.ShortTag() == "!!null" || v.Value == "":
		p.errorfOnce(n, "%s: no value", key)
		return "", false
	case isTemplate(v.Value):
		p.errorfOnce(n, "%s: %q is a Jinja template, which roceaudit does not evaluate (expected a plain value)", key, v.Value)
		return "", false
	}
	return v.Value, true
}

// ansPort accepts what Ansible does: an integer, or a string of digits.
func (p *importParser) ansPort(n *yaml.Node) (int, bool) {
	v := deref(n)
	if v != nil && v.Kind == yaml.ScalarNode && (v.ShortTag() == "!!int" || v.ShortTag() == "!!str") {
		if i, err := strconv.Atoi(v.Value); err == nil {
			if i < 1 || i > 65535 {
				p.errorfOnce(n, "%s: %d is out of range (expected a TCP port 1..65535)", ansPort, i)
				return 0, false
			}
			return i, true
		}
	}
	p.errorfOnce(n, "%s: %s is not a TCP port (expected an integer 1..65535)", ansPort, describe(n))
	return 0, false
}

// ansBool accepts Ansible's booleans (yes/no, true/false, on/off, 1/0, in any case).
func (p *importParser) ansBool(n *yaml.Node, key string) (bool, bool) {
	v := deref(n)
	if v != nil && v.Kind == yaml.ScalarNode {
		switch strings.ToLower(v.Value) {
		case "y", "yes", "on", "1", "1.0", "true", "t":
			return true, true
		case "n", "no", "off", "0", "0.0", "false", "f":
			return false, true
		}
	}
	p.errorfOnce(n, "%s: %s is not a boolean (expected true or false)", key, describe(n))
	return false, false
}

// maxHostRange bounds what one host pattern may expand to.
const maxHostRange = 10000

// expandHostPattern expands an Ansible host pattern: a [beg:end] or [beg:end:step] numeric or
// alphabetic range (zero-padded when beg is), any number of them, and a :port suffix.
func expandHostPattern(pattern string) (names []string, port int, err error) {
	name := pattern
	// One colon after the last range is host:port; an IPv6 address has several.
	lb := strings.LastIndexByte(pattern, ']')
	if rest := pattern[lb+1:]; strings.Count(rest, ":") == 1 {
		i := lb + 1 + strings.IndexByte(rest, ':')
		p, perr := strconv.Atoi(pattern[i+1:])
		if perr != nil || p < 1 || p > 65535 {
			return nil, 0, fmt.Errorf("%q: %q after the colon is not a TCP port", pattern, pattern[i+1:])
		}
		name, port = pattern[:i], p
	}
	names = []string{name}
	for {
		var next []string
		expanded := false
		for _, n := range names {
			out, ok, err := expandOneRange(n)
			if err != nil {
				return nil, 0, fmt.Errorf("%q: %w", pattern, err)
			}
			expanded = expanded || ok
			next = append(next, out...)
			if len(next) > maxHostRange {
				return nil, 0, fmt.Errorf("%q expands to more than %d hosts", pattern, maxHostRange)
			}
		}
		names = next
		if !expanded {
			return names, port, nil
		}
	}
}

const hostLetters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// expandOneRange expands the first [..] of name; ok is false when it has none.
func expandOneRange(name string) ([]string, bool, error) {
	open := strings.IndexByte(name, '[')
	if open < 0 {
		return []string{name}, false, nil
	}
	end := strings.IndexByte(name[open:], ']')
	if end < 0 {
		return nil, false, fmt.Errorf("unclosed [ in a host range")
	}
	head, spec, tail := name[:open], name[open+1:open+end], name[open+end+1:]
	bounds := strings.Split(spec, ":")
	if len(bounds) != 2 && len(bounds) != 3 {
		return nil, false, fmt.Errorf("host range [%s] must be [begin:end] or [begin:end:step]", spec)
	}
	beg, last, step := bounds[0], bounds[1], 1
	if beg == "" {
		beg = "0"
	}
	if last == "" {
		return nil, false, fmt.Errorf("host range [%s] has no end", spec)
	}
	if len(bounds) == 3 {
		s, err := strconv.Atoi(bounds[2])
		if err != nil || s < 1 {
			return nil, false, fmt.Errorf("host range [%s]: step %q is not a positive integer", spec, bounds[2])
		}
		step = s
	}
	var out []string
	if len(beg) == 1 && len(last) == 1 && strings.Contains(hostLetters, beg) && strings.Contains(hostLetters, last) {
		i, j := strings.Index(hostLetters, beg), strings.Index(hostLetters, last)
		if i > j {
			return nil, false, fmt.Errorf("host range [%s] goes backwards", spec)
		}
		for k := i; k <= j; k += step {
			out = append(out, head+hostLetters[k:k+1]+tail)
		}
		return out, true, nil
	}
	b, errB := strconv.Atoi(beg)
	e, errE := strconv.Atoi(last)
	if errB != nil || errE != nil || b < 0 {
		return nil, false, fmt.Errorf("host range [%s] is neither numeric nor a letter range", spec)
	}
	if b > e {
		return nil, false, fmt.Errorf("host range [%s] goes backwards", spec)
	}
	if (e-b)/step >= maxHostRange {
		return nil, false, fmt.Errorf("host range [%s] has more than %d hosts", spec, maxHostRange)
	}
	width := 0
	if len(beg) > 1 && beg[0] == '0' {
		if len(beg) != len(last) {
			return nil, false, fmt.Errorf("host range [%s]: a zero-padded range needs begin and end of equal length", spec)
		}
		width = len(beg)
	}
	for k := b; k <= e; k += step {
		out = append(out, fmt.Sprintf("%s%0*d%s", head, width, k, tail))
	}
	return out, true, nil
}
