package inventory

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// Inventory sources that stand in for a roceaudit inventory: `-i clab:FILE`,
// `-i ansible:FILE` and `-i netbox:URL`.
const (
	SourceContainerlab = "clab"
	SourceAnsible      = "ansible"
	SourceNetBox       = "netbox"
)

// sourcePrefix matches a `type:` prefix; a single letter is left alone (C:\inv.yaml).
var sourcePrefix = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9_+.-]+):`)

// Open loads the inventory named by spec: `clab:FILE` imports a containerlab topology,
// `ansible:FILE` an Ansible inventory (YAML, INI or `ansible-inventory --list` JSON),
// `netbox:URL` the devices of a NetBox instance, and anything else is a roceaudit inventory
// file (Load). Options may follow a `?` (`ansible:hosts?limit=leaves`, see ParseOptions).
// platforms is as for Load. Problems in the file are *Error values, whatever its format.
func Open(spec string, platforms Platforms) (*Inventory, error) {
	spec, opts, err := splitOptions(spec)
	if err != nil {
		return nil, err
	}
	return OpenWith(spec, platforms, opts)
}

// OpenWith is Open with the options already separated from the source.
func OpenWith(spec string, platforms Platforms, opts Options) (*Inventory, error) {
	kind, file, err := sourceKind(spec)
	if err != nil {
		return nil, err
	}
	if err := opts.check(kind); err != nil {
		return nil, fmt.Errorf("inventory %q: %w", spec, err)
	}
	ov, err := loadOverlay(opts.Defaults, platforms)
	if err != nil {
		return nil, err
	}
	var inv *Inventory
	switch kind {
	case SourceContainerlab:
		inv, err = loadContainerlab(file, platforms, processEnv(), ov, opts)
	case SourceAnsible:
		inv, err = loadAnsible(file, platforms, processEnv(), ov, opts)
	case SourceNetBox:
		inv, err = loadNetBox(file, platforms, processEnv(), ov, opts)
	default:
		inv, err = Load(file, platforms)
		if err == nil {
			err = limitNative(inv, opts.Limit)
		}
	}
	if err != nil {
		return nil, err
	}
	inv.Read = ReadFiles{Source: file, Defaults: opts.Defaults, CA: opts.CAFile}
	if kind == SourceNetBox {
		inv.Read.Source = "" // a URL
	}
	return inv, nil
}

// sourceKind splits spec into its source type ("" for a roceaudit inventory) and the rest.
func sourceKind(spec string) (kind, rest string, err error) {
	m := sourcePrefix.FindStringSubmatch(spec)
	if m == nil {
		return "", spec, nil
	}
	rest = spec[len(m[0]):]
	switch kind := strings.ToLower(m[1]); kind {
	case SourceContainerlab, SourceAnsible, SourceNetBox:
		if rest == "" {
			noun, what := "file", "FILE"
			if kind == SourceNetBox {
				noun, what = "URL", "https://HOST"
			}
			return "", "", fmt.Errorf("inventory %q: no %s after %s: (expected %s:%s)", spec, noun, kind, kind, what)
		}
		return kind, rest, nil
	}
	// A file whose name happens to contain a colon is still a file.
	if _, err := os.Stat(spec); err == nil || !errors.Is(err, os.ErrNotExist) {
		return "", spec, nil
	}
	return "", "", fmt.Errorf("inventory %q: no such file, and %q is not an inventory type (expected a roceaudit inventory file, %s:FILE for a containerlab topology, %s:FILE for an Ansible inventory or %s:https://HOST for NetBox)",
		spec, m[1]+":", SourceContainerlab, SourceAnsible, SourceNetBox)
}

// readImport reads an imported file, naming its format in the error.
func readImport(path, what string) ([]byte, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		hint := "name the file in it"
		if what == ansibleWhat { // an inventory directory (hosts plus group_vars/) is the usual layout
			hint = fmt.Sprintf("name the inventory file in it (hosts, inventory.yml; its group_vars/ and host_vars/ are read beside it), or export it whole with `ansible-inventory -i %s --list > inventory.json`", path)
		}
		return nil, fmt.Errorf("read %s: %s is a directory: %s", what, path, hint)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", what, err)
	}
	return data, nil
}

// importParser is the native parser's machinery (errors with places, connection defaults,
// path resolution, platform lookup) for a file of another format.
type importParser struct {
	*parser
	once   map[*yaml.Node]bool // value nodes already reported (a group var shared by many hosts)
	kinds  map[string]ClabKind // the containerlab kind table, read once
	ov     *overlay            // --defaults, if any
	opts   Options
	warns  []importWarning
	warned map[string]bool
}

// importWarning is one warning and its place, by which warnings are listed (hosts are
// resolved in name order, which is not the order of the file).
type importWarning struct {
	file      string
	line, col int
	msg       string
}

// warnf records a problem that does not stop the import (a variable roceaudit does not know,
// a node left out), at its place in the file, once.
func (p *importParser) warnf(n *yaml.Node, format string, args ...any) {
	if n == nil {
		p.warnIn(p.file, 0, 0, format, args...)
		return
	}
	p.warnIn(p.fileOf(n), n.Line, n.Column, format, args...)
}

// warnIn is warnf at a place given by file, line and column (0 when it has none).
func (p *importParser) warnIn(file string, line, col int, format string, args ...any) {
	msg := (&Error{File: file, Line: line, Column: col, Err: fmt.Errorf(format, args...)}).Error()
	if p.warned == nil {
		p.warned = map[string]bool{}
	}
	if !p.warned[msg] {
		p.warned[msg] = true
		p.warns = append(p.warns, importWarning{file: file, line: line, col: col, msg: msg})
	}
}

// result is the import's inventory, or every error found in the source and the overlay.
func (p *importParser) result(inv *Inventory, extra error) (*Inventory, error) {
	if err := errors.Join(p.errs.err(), extra); err != nil {
		return nil, err
	}
	slices.SortStableFunc(p.warns, func(a, b importWarning) int {
		return byPlace(p.file, a.file, a.line, a.col, b.file, b.line, b.col)
	})
	for _, w := range p.warns {
		inv.Warnings = append(inv.Warnings, w.msg)
	}
	return inv, nil
}

func newImportParser(file string, platforms Platforms, env inventoryEnv) (*importParser, error) {
	dir, err := filepath.Abs(filepath.Dir(file))
	if err != nil {
		return nil, fmt.Errorf("inventory %s: resolve its directory: %w", file, err)
	}
	p := &parser{
		file: file, dir: dir, platforms: platforms, env: env,
		errs: inventoryErrors{file: file}, seen: map[string]int{}, reported: map[string]bool{},
	}
	return &importParser{parser: p, once: map[*yaml.Node]bool{}}, nil
}

// errorfOnce reports a problem with a value once, however many devices inherit it.
func (p *importParser) errorfOnce(n *yaml.Node, format string, args ...any) {
	if p.once[n] {
		return
	}
	p.once[n] = true
	p.errorf(n, format, args...)
}

// document parses data as exactly one YAML document; noun names one (for a second document),
// expect what the file should hold (for an empty one).
func (p *importParser) document(data []byte, noun, expect string) *yaml.Node {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			p.errs.add(1, 1, fmt.Errorf("empty file (expected %s)", expect))
		} else {
			p.syntaxError(data, err)
		}
		return nil
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case err == nil:
		p.errorf(&next, "a second YAML document (expected one %s per file)", noun)
		return nil
	case !errors.Is(err, io.EOF):
		p.syntaxError(data, err)
		return nil
	}
	if len(doc.Content) == 0 || isNull(doc.Content[0]) {
		p.errs.add(1, 1, fmt.Errorf("empty file (expected %s)", expect))
		return nil
	}
	return doc.Content[0]
}

// fields is a mapping read leniently: imported formats carry many keys roceaudit has no use
// for, so unknown keys are kept, not reported. Duplicates still are.
type fields struct {
	list []field
	by   map[string]field
}

func (f fields) get(key string) (field, bool) {
	v, ok := f.by[key]
	return v, ok
}

// entries reads the mapping n, resolving YAML merge keys (`<<: *anchor`), which both
// containerlab and Ansible files use. A key set in the mapping itself wins over a merged one.
func (p *importParser) entries(n *yaml.Node, what string) (fields, bool) {
	m := deref(n)
	if m == nil || m.Kind != yaml.MappingNode {
		p.errorf(n, "%s: expected a mapping, got %s", what, describe(n))
		return fields{}, false
	}
	out := fields{by: make(map[string]field, len(m.Content)/2)}
	var merged []*yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			p.errorf(k, "%s: expected a key, got %s", what, describe(k))
			continue
		}
		if k.ShortTag() == "!!merge" {
			merged = append(merged, v)
			continue
		}
		if first, dup := out.by[k.Value]; dup {
			p.errorf(k, "duplicate key %q in %s (first at line %d)", k.Value, what, first.key.Line)
			continue
		}
		f := field{key: k, val: v}
		out.by[k.Value] = f
		out.list = append(out.list, f)
	}
	for _, src := range merged {
		srcs := []*yaml.Node{src}
		if s := deref(src); s != nil && s.Kind == yaml.SequenceNode {
			srcs = s.Content
		}
		for _, s := range srcs {
			sm := deref(s)
			if sm == nil || sm.Kind != yaml.MappingNode {
				p.errorf(s, "%s: << merges a mapping, got %s", what, describe(s))
				continue
			}
			inner, _ := p.entries(sm, what)
			for _, f := range inner.list {
				if _, set := out.by[f.key.Value]; !set {
					out.by[f.key.Value] = f
					out.list = append(out.list, f)
				}
			}
		}
	}
	return out, true
}

// importedDevice is a device read from another format, before connection defaults.
type importedDevice struct {
	spec   DeviceSpec
	at     *yaml.Node // where it is defined, for environment errors
	conn   connSettings
	groups []string // what --limit can select it by, besides its name
}

// roleOf is the role of a known platform; without a registry, only linux is a host.
func (p *importParser) roleOf(platform string, at *yaml.Node, what string) (topology.Role, bool) {
	if p.platforms == nil {
		if platform == defaultHostPlatform {
			return topology.RoleHost, true
		}
		return topology.RoleSwitch, true
	}
	role, ok := p.platforms.Role(platform)
	if !ok {
		p.errorfOnce(at, "%s: unknown platform %q", what, platform)
	}
	return role, ok
}

// inventory finishes an imported inventory the way the native loader does: built-in
// connection defaults under the overlay's, the recipe, hosts before switches, at least one
// device; then --limit. The error is the overlay's (a device it names that is not here).
func (p *importParser) inventory(root *yaml.Node, devs []importedDevice, links []topology.Link, none string) (*Inventory, error) {
	base, missing := p.builtinConn()
	p.missing = missing
	inv := &Inventory{File: p.file, Recipe: recipe.Default(), Links: links}
	devs, base, ovErr := p.ov.apply(devs, base)
	if p.ov != nil {
		inv.Recipe = p.ov.recipe
	}
	if len(devs) == 0 && len(p.errs.list) == 0 {
		p.errorf(root, "%s", none)
	}
	if len(p.opts.Limit) > 0 && len(devs) > 0 {
		var names []string
		groups := map[string][]string{}
		for _, d := range devs {
			names = append(names, d.spec.Name)
			groups[d.spec.Name] = append(d.groups, d.spec.Platform, sectionOf(d.spec.Role))
		}
		keep, err := selectDevices(p.opts.Limit, names, groups)
		if err != nil {
			p.errs.add(0, 0, err)
			return inv, ovErr
		}
		devs = slices.DeleteFunc(devs, func(d importedDevice) bool { return !keep[d.spec.Name] })
		inv.Links = keepLinks(inv.Links, keep)
	}
	for _, role := range []topology.Role{topology.RoleHost, topology.RoleSwitch} {
		for _, d := range devs {
			if d.spec.Role != role {
				continue
			}
			c := base.over(d.conn)
			if c.User == nil && p.missing["user"] != nil {
				p.errorOnce("user", d.at, p.missing["user"])
			}
			if c.KnownHosts == nil && p.missing["known_hosts"] != nil {
				p.errorOnce("known_hosts", d.at, p.missing["known_hosts"])
			}
			d.spec.Conn = c.connection(p.env)
			inv.Devices = append(inv.Devices, d.spec)
		}
	}
	return inv, ovErr
}

// linkSet collects links, refusing a port with two peers as the native loader does.
type linkSet struct {
	links  []topology.Link
	linked map[topology.PortRef]int // port -> line of its link
}

func (p *importParser) addLink(s *linkSet, a, b topology.PortRef, atA, atB *yaml.Node) {
	if s.linked == nil {
		s.linked = map[topology.PortRef]int{}
	}
	if a == b {
		p.errorf(atB, "links: %s is linked to itself", a)
		return
	}
	dup := false
	for i, pr := range []topology.PortRef{a, b} {
		if line, seen := s.linked[pr]; seen {
			p.errorf([]*yaml.Node{atA, atB}[i], "links: %s is already linked at line %d (a port has one peer)", pr, line)
			dup = true
		}
	}
	if dup {
		return
	}
	s.linked[a], s.linked[b] = atA.Line, atB.Line
	s.links = append(s.links, topology.Link{A: a, B: b, Source: "inventory"})
}

// sortedKeys lists a set's keys in order, for messages.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, cmp.Compare)
	return keys
}
