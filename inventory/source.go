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

// Inventory sources that stand in for a roceaudit inventory: `-i clab:FILE`
// and `-i ansible:FILE`.
const (
	SourceContainerlab = "clab"
	SourceAnsible      = "ansible"
)

// sourcePrefix matches a `type:` prefix; a single letter is left alone (C:\inv.yaml).
var sourcePrefix = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9_+.-]+):`)

// Open loads the inventory named by spec: `clab:FILE` imports a containerlab topology,
// `ansible:FILE` an Ansible YAML inventory, and anything else is a roceaudit inventory file
// (Load). platforms is as for Load. Problems in the file are
// *InventoryError values, whatever its format.
func Open(spec string, platforms Platforms) (*Inventory, error) {
	m := sourcePrefix.FindStringSubmatch(spec)
	if m == nil {
		return Load(spec, platforms)
	}
	file := spec[len(m[0]):]
	switch kind := strings.ToLower(m[1]); kind {
	case SourceContainerlab, SourceAnsible:
		if file == "" {
			return nil, fmt.Errorf("inventory %q: no file after %s: (expected %s:FILE)", spec, kind, kind)
		}
		if kind == SourceContainerlab {
			return LoadContainerlab(file, platforms)
		}
		return LoadAnsible(file, platforms)
	}
	// A file whose name happens to contain a colon is still a file.
	if _, err := os.Stat(spec); err == nil || !errors.Is(err, os.ErrNotExist) {
		return Load(spec, platforms)
	}
	return nil, fmt.Errorf("inventory %q: no such file, and %q is not an inventory type (expected a roceaudit inventory file, %s:FILE for a containerlab topology or %s:FILE for an Ansible YAML inventory)",
		spec, m[1]+":", SourceContainerlab, SourceAnsible)
}

// readImport reads an imported file, naming its format in the error.
func readImport(path, what string) ([]byte, error) {
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
	once  map[*yaml.Node]bool // value nodes already reported (a group var shared by many hosts)
	kinds map[string]ClabKind // the containerlab kind table, read once
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
	spec DeviceSpec
	at   *yaml.Node // where it is defined, for environment errors
	conn connSettings
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
// connection defaults, the recipe's defaults, hosts before switches, at least one device.
func (p *importParser) inventory(root *yaml.Node, devs []importedDevice, links []topology.Link, none string) *Inventory {
	base, missing := p.builtinConn()
	p.missing = missing
	inv := &Inventory{File: p.file, Recipe: recipe.Default(), Links: links}
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
	if len(devs) == 0 && len(p.errs.list) == 0 {
		p.errorf(root, "%s", none)
	}
	return inv
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
