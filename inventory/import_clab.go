package inventory

import (
	"cmp"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/roceaudit/roceaudit/topology"
	"gopkg.in/yaml.v3"
)

// A containerlab topology file (containerlab.dev/manual/topo-def-file) read as an inventory:
// its nodes are the devices and its veth links the declared links.

// clabTemplate finds a Go template action: containerlab runs a topology file through
// text/template (with its variable files) before it reads it.
var clabTemplate = regexp.MustCompile(`\{\{`)

// clabInfra are kinds that are wiring, not devices: left out quietly, and their links with them.
var clabInfra = []string{"bridge", "ovs-bridge", "host"}

// clabOutside are endpoint names that are not nodes: the host namespace, the management
// network, a macvlan parent. Links to them leave the lab.
var clabOutside = []string{"host", "mgmt-net", "macvlan"}

// clabLinkTypes are the extended link types with a single endpoint: none joins two nodes
// (veth and veth-stitch have two).
var clabLinkTypes = []string{"mgmt-net", "macvlan", "host", "vxlan", "vxlan-stitch", "dummy"}

// Node labels that steer the import; `none` leaves a node out.
const (
	clabPlatformLabel = "roceaudit.platform"
	platformNone      = "none"
)

// LoadContainerlab reads a containerlab topology file as an inventory; see Open.
func LoadContainerlab(path string, platforms Platforms) (*Inventory, error) {
	return loadContainerlab(path, platforms, processEnv(), nil, Options{})
}

func loadContainerlab(path string, platforms Platforms, env inventoryEnv, ov *overlay, opts Options) (*Inventory, error) {
	data, err := readImport(path, "containerlab topology")
	if err != nil {
		return nil, err
	}
	return parseContainerlabWith(path, data, platforms, env, os.LookupEnv, ov, opts)
}

// ParseContainerlab reads containerlab topology data as if from file (errors name it; relative
// paths resolve against its directory).
func ParseContainerlab(file string, data []byte, platforms Platforms) (*Inventory, error) {
	return parseContainerlab(file, data, platforms, processEnv())
}

func parseContainerlab(file string, data []byte, platforms Platforms, env inventoryEnv) (*Inventory, error) {
	return parseContainerlabWith(file, data, platforms, env, os.LookupEnv, nil, Options{})
}

// parseContainerlabWith reads data with ${VAR} expanded from lookup, as containerlab does.
func parseContainerlabWith(file string, data []byte, platforms Platforms, env inventoryEnv, lookup func(string) (string, bool), ov *overlay, opts Options) (*Inventory, error) {
	p, err := newImportParser(file, platforms, env)
	if err != nil {
		return nil, err
	}
	p.ov, p.opts = ov, opts
	inv, extra := p.clab(expandClabEnv(data, lookup))
	return p.result(inv, extra)
}

// clabNode is one entry of topology.nodes.
type clabNode struct {
	key      *yaml.Node
	kind     string
	imported bool // false: infrastructure, left out by label, or not usable
}

// clabScope is what nodes inherit, as containerlab resolves a node's settings: the node's
// own, then its group's (topology.groups.<group>), then its kind's (topology.kinds.<kind>),
// then topology.defaults.
type clabScope struct {
	defaults fields
	kinds    map[string]fields
	groups   map[string]fields
}

// clabLayers are the mappings a node's settings come from, nearest first.
func (s clabScope) layers(nf fields, group, kind string) []fields {
	return []fields{nf, s.groups[group], s.kinds[kind], s.defaults}
}

// clabGet finds key in the nearest layer that sets it.
func clabGet(layers []fields, key string) (field, bool) {
	for _, l := range layers {
		if f, ok := l.get(key); ok {
			return f, true
		}
	}
	return field{}, false
}

func (p *importParser) clab(data []byte) (*Inventory, error) {
	if loc := clabTemplate.FindIndex(data); loc != nil {
		line := 1 + strings.Count(string(data[:loc[0]]), "\n")
		p.errs.add(line, 0, fmt.Errorf("this topology is a template ({{ ... }}), which containerlab renders with its variables before reading it: write the rendered file with `containerlab deploy -t FILE --export-rendered RENDERED.clab.yml` and import that"))
		return nil, nil
	}
	root := p.document(data, "containerlab topology", "a containerlab topology with name: and topology.nodes")
	if root == nil {
		return nil, nil
	}
	top, ok := p.entries(root, "the containerlab topology")
	if !ok {
		return nil, nil
	}
	topo, has := top.get("topology")
	if !has {
		msg := "not a containerlab topology: no topology: section (expected name: and topology.nodes)"
		if _, v := top.get("version"); v {
			msg += "; this looks like a roceaudit inventory: pass it to -i without clab:"
		}
		p.errorf(root, "%s", msg)
		return nil, nil
	}
	tf, ok := p.entries(topo.val, "topology")
	if !ok {
		return nil, nil
	}
	nodesF, has := tf.get("nodes")
	if !has || isNull(nodesF.val) {
		p.errorf(topo.key, "not a containerlab topology: topology: has no nodes: (expected topology.nodes with at least one node)")
		return nil, nil
	}
	scope := p.clabScope(tf)
	containerName := p.clabContainerName(top)

	nodeFields, ok := p.entries(nodesF.val, "topology.nodes")
	if !ok {
		return nil, nil
	}
	nodes := map[string]*clabNode{}
	var devs []importedDevice
	var leftOut []string
	for _, f := range nodeFields.list {
		n := &clabNode{key: f.key}
		nodes[f.key.Value] = n
		if d, ok := p.clabDevice(f, n, scope, containerName); ok {
			devs = append(devs, d)
		} else if n.kind != "" && !slices.Contains(clabInfra, n.kind) {
			leftOut = append(leftOut, fmt.Sprintf("%s (%s)", f.key.Value, n.kind))
		}
	}
	var links []topology.Link
	if lf, has := tf.get("links"); has && !isNull(lf.val) {
		links = p.clabLinks(lf.val, nodes)
	}
	none := "no node to audit: topology.nodes has no node of a kind roceaudit covers (" + strings.Join(sortedKeys(p.clabKinds()), ", ") + ")"
	if len(leftOut) > 0 {
		none = fmt.Sprintf("no node to audit: every node is left out (%s); label a node %s: PLATFORM to audit it as that platform", strings.Join(leftOut, ", "), clabPlatformLabel)
	}
	return p.inventory(root, devs, links, none)
}

func (p *importParser) clabScope(tf fields) clabScope {
	s := clabScope{kinds: map[string]fields{}, groups: map[string]fields{}}
	if f, ok := tf.get("defaults"); ok && !isNull(f.val) {
		s.defaults, _ = p.entries(f.val, "topology.defaults")
	}
	for _, sec := range []struct {
		key  string
		into map[string]fields
		fold bool
	}{{"kinds", s.kinds, true}, {"groups", s.groups, false}} {
		f, ok := tf.get(sec.key)
		if !ok || isNull(f.val) {
			continue
		}
		items, _ := p.entries(f.val, "topology."+sec.key)
		for _, k := range items.list {
			if isNull(k.val) {
				continue
			}
			name := k.key.Value
			if sec.fold {
				name = strings.ToLower(name)
			}
			sec.into[name], _ = p.entries(k.val, "topology."+sec.key+"."+k.key.Value)
		}
	}
	return s
}

// clabLabels reads the labels: of a node, group, kind or the defaults.
func (p *importParser) clabLabels(f fields) fields {
	lf, has := f.get("labels")
	if !has || isNull(lf.val) {
		return fields{}
	}
	labels, _ := p.entries(lf.val, "labels")
	return labels
}

// clabContainerName returns the name containerlab gives a node's container, which resolves on
// the containerlab host: clab-<lab>-<node>, or as `prefix:` changes it. It reports (once) a
// topology without the name it needs.
func (p *importParser) clabContainerName(top fields) func(node string, at *yaml.Node) (string, bool) {
	lab, hasLab := "", false
	if f, ok := top.get("name"); ok {
		lab, hasLab = p.str(f.val, "name", "the lab name")
	}
	prefix, hasPrefix := "clab", true
	if f, ok := top.get("prefix"); ok {
		v := deref(f.val)
		switch {
		case v != nil && v.Kind == yaml.ScalarNode && v.ShortTag() != "!!null":
			prefix = v.Value
		case isNull(f.val):
			prefix = "" // `prefix:` with nothing is the empty prefix
		default:
			p.errorf(f.val, "prefix: expected a string, got %s", describe(f.val))
			hasPrefix = false
		}
	}
	return func(node string, at *yaml.Node) (string, bool) {
		switch {
		case !hasPrefix:
			return "", false
		case prefix == "":
			return node, true
		case !hasLab:
			p.errorOnce("clab-name", at, fmt.Errorf("node %q has no mgmt-ipv4 or mgmt-ipv6, and the topology has no name: to make its container name (clab-NAME-%s) from", node, node))
			return "", false
		case prefix == "__lab-name":
			return lab + "-" + node, true
		}
		return prefix + "-" + lab + "-" + node, true
	}
}

// clabDevice reads one node. ok is false for a node that is not imported.
func (p *importParser) clabDevice(f field, n *clabNode, scope clabScope, containerName func(string, *yaml.Node) (string, bool)) (importedDevice, bool) {
	name := f.key.Value
	var nf fields
	if !isNull(f.val) {
		var ok bool
		if nf, ok = p.entries(f.val, fmt.Sprintf("node %q", name)); !ok {
			return importedDevice{}, false
		}
	}
	what := fmt.Sprintf("node %q", name)

	// As containerlab resolves them: the kind is the node's, its group's, the default group's
	// or the default; the group is the node's, its kind's or the default.
	groupOf := func(l fields) string {
		if gf, has := l.get("group"); has && !isNull(gf.val) {
			g, _ := p.str(gf.val, "group", "a group name")
			return g
		}
		return ""
	}
	defGroup := groupOf(scope.defaults)
	kindAt := f.key
	kf, has := clabGet([]fields{nf, scope.groups[groupOf(nf)], scope.groups[defGroup], scope.defaults}, "kind")
	if !has {
		p.errorf(f.key, "%s has no kind (expected kind: on the node, its group or in topology.defaults)", what)
		return importedDevice{}, false
	}
	if _, own := nf.get("kind"); own {
		kindAt = kf.val
	}
	kind, ok := p.str(kf.val, "kind", "a containerlab kind")
	if !ok {
		return importedDevice{}, false
	}
	n.kind = strings.ToLower(kind)
	group := cmp.Or(groupOf(nf), groupOf(scope.kinds[n.kind]), defGroup)
	layers := scope.layers(nf, group, n.kind)
	labels := p.clabNodeLabels(layers)

	kinds := p.clabKinds()
	platform, at := kinds[n.kind].Platform, kindAt
	if lf, has := labels[clabPlatformLabel]; has {
		if v, ok := p.str(lf.val, "labels."+clabPlatformLabel, "a platform name or none"); ok {
			platform, at = v, lf.val
		} else {
			return importedDevice{}, false
		}
	} else if platform == "" {
		if !slices.Contains(clabInfra, n.kind) {
			p.warnf(kindAt, "%s left out: kind %s is not one roceaudit audits (%s); label it %s: PLATFORM to audit it as one of the platforms",
				what, kind, strings.Join(sortedKeys(kinds), ", "), clabPlatformLabel)
		}
		return importedDevice{}, false
	}
	if platform == platformNone {
		return importedDevice{}, false
	}
	role, ok := p.roleOf(platform, at, what)
	if !ok {
		return importedDevice{}, false
	}
	// Only a device's name must be one (a bridge may be called br01|bp1).
	if err := validDeviceName(name); err != nil {
		p.errorf(f.key, "topology.nodes: %v", err)
		return importedDevice{}, false
	}

	d := importedDevice{at: f.key, spec: DeviceSpec{Name: name, Role: role, Platform: platform, Line: f.key.Line}, groups: []string{n.kind}}
	if group != "" {
		d.groups = append(d.groups, group)
	}
	addrOK := false
	for _, key := range []string{"mgmt-ipv4", "mgmt-ipv6"} {
		if af, has := clabGet(layers[:1], key); has && !isNull(af.val) {
			if v, ok := p.str(af.val, key, "an IP address"); ok {
				switch err := validAddress(v); {
				case err != nil && strings.HasPrefix(v, "$"):
					// containerlab leaves an unset variable as written.
					p.errorf(af.val, "%s: %s is not set in the environment (containerlab would leave it as written; export it, or give a default: ${VAR:=10.0.0.1})", key, v)
				case err != nil:
					p.errorf(af.val, "%s: %v", key, err)
				}
				d.spec.Address, addrOK = v, true
			}
			break
		}
	}
	if !addrOK {
		if d.spec.Address, addrOK = containerName(name, f.key); addrOK {
			if err := validAddress(d.spec.Address); err != nil {
				p.errorf(f.key, "%s: container name: %v", what, err)
			}
		}
	}
	d.conn = p.clabConn(labels)
	n.imported = true
	return d, true
}

// clabLinks reads topology.links in both formats: brief (`endpoints: ["a:eth1", "b:eth1"]`)
// and extended (`type: veth` with `endpoints: [{node, interface}, ...]`). Links that leave
// the lab or reach a node that is not imported are dropped.
func (p *importParser) clabLinks(n *yaml.Node, nodes map[string]*clabNode) []topology.Link {
	items, ok := p.list(n, "links", "a list of links")
	if !ok {
		return nil
	}
	var set linkSet
	for _, it := range items {
		lf, ok := p.entries(it, "a link")
		if !ok {
			continue
		}
		typ := ""
		if tf, has := lf.get("type"); has {
			if typ, ok = p.str(tf.val, "type", "a link type"); !ok {
				continue
			}
			// containerlab reads the type trimmed and in any case.
			typ = strings.ToLower(strings.TrimSpace(typ))
			if slices.Contains(clabLinkTypes, typ) {
				continue
			}
			switch typ {
			case "brief":
				typ = ""
			case "veth", "veth-stitch":
				typ = "veth"
			default:
				p.errorf(tf.val, "links: unknown link type %q (expected veth, veth-stitch, or one of %s)", typ, strings.Join(clabLinkTypes, ", "))
				continue
			}
		}
		ef, has := lf.get("endpoints")
		if !has {
			p.errorf(it, "links: a link without endpoints: (expected endpoints: [\"node:interface\", \"node:interface\"])")
			continue
		}
		ends, ok := p.list(ef.val, "endpoints", "two endpoints")
		if !ok {
			continue
		}
		if len(ends) != 2 {
			p.errorf(ef.val, "links: %d endpoints (expected two: a link joins two interfaces)", len(ends))
			continue
		}
		if !p.clabEndpointForm(ends, typ == "veth") {
			continue
		}
		var refs [2]topology.PortRef
		good, keep := true, true
		for i, e := range ends {
			ref, ok, inLab := p.clabEndpoint(e, nodes)
			refs[i], good, keep = ref, good && ok, keep && inLab
		}
		if good && keep {
			p.addLink(&set, refs[0], refs[1], deref(ends[0]), deref(ends[1]))
		}
	}
	return set.links
}

// clabEndpointForm checks that a link's endpoints are written in its format: node:interface
// strings in the brief format, {node, interface} mappings with type: veth. One mistake is
// reported once per link.
func (p *importParser) clabEndpointForm(ends []*yaml.Node, extended bool) bool {
	for _, e := range ends {
		isMap := deref(e) != nil && deref(e).Kind == yaml.MappingNode
		switch {
		case isMap && !extended:
			p.errorf(e, "links: an endpoint given as a mapping needs type: veth on its link (containerlab's extended link format)")
			return false
		case !isMap && extended:
			p.errorf(e, "links: with type: veth an endpoint is a mapping (expected {node: leaf1, interface: eth1}), got %s", describe(e))
			return false
		}
	}
	return true
}

// clabEndpoint reads one end of a link, in the form clabEndpointForm checked. inLab is false
// for an end outside the imported devices (the link is dropped, not an error).
func (p *importParser) clabEndpoint(e *yaml.Node, nodes map[string]*clabNode) (ref topology.PortRef, ok, inLab bool) {
	var node, iface string
	at := e
	if v := deref(e); v.Kind == yaml.MappingNode {
		ef, _ := p.entries(v, "an endpoint")
		nf, hasN := ef.get("node")
		inf, hasI := ef.get("interface")
		if !hasN || !hasI {
			p.errorf(e, "links: endpoint without node: and interface: (expected {node: leaf1, interface: eth1})")
			return topology.PortRef{}, false, true
		}
		var okN, okI bool
		node, okN = p.str(nf.val, "node", "a node name")
		iface, okI = p.str(inf.val, "interface", "an interface name")
		if !okN || !okI {
			return topology.PortRef{}, false, true
		}
		at = inf.val
	} else {
		s, good := p.str(e, "endpoints", "node:interface")
		if !good {
			return topology.PortRef{}, false, true
		}
		parts := strings.Split(s, ":")
		if len(parts) != 2 || parts[0] == "" || parts[1] == "" {
			p.errorf(e, "links: %q is not node:interface (e.g. \"leaf1:eth1\")", s)
			return topology.PortRef{}, false, true
		}
		node, iface = parts[0], parts[1]
	}
	n, known := nodes[node]
	switch {
	case !known && slices.Contains(clabOutside, node):
		return topology.PortRef{}, true, false
	case !known:
		p.errorf(e, "links: unknown node %q (not under topology.nodes)", node)
		return topology.PortRef{}, false, true
	case !n.imported:
		return topology.PortRef{}, true, false
	}
	port := p.clabPort(n.kind, iface)
	if err := topology.ValidName(port); err != nil {
		p.errorf(at, "links: %v", err)
		return topology.PortRef{}, false, true
	}
	return topology.PortRef{Device: node, Interface: port}, true, true
}

// clabPort is the switch's own name for the port containerlab wires as iface on a node of
// kind, as the kind's platform spells it; anything the platform does not rename (interface
// aliases, Cumulus swpN, host netdevs) is already the device's name.
func (p *importParser) clabPort(kind, iface string) string {
	if k := p.clabKinds()[kind]; k.Port != nil {
		return k.Port(iface)
	}
	return iface
}
