package inventory

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/user"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/topology"
	"gopkg.in/yaml.v3"
)

// Version is the only inventory schema version this build reads.
const Version = 1

var topKeys = []string{"version", "defaults", "recipe", "hosts", "switches", "links", "paths"}

// Load reads and validates the inventory file at path. platforms says
// whether a platform name exists and which role it serves; nil accepts any platform and
// takes the role from the section (hosts: or switches:). Problems in the file are
// *InventoryError values (several are joined, in file order).
func Load(path string, platforms Platforms) (*Inventory, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read inventory: %w", err)
	}
	return Parse(path, data, platforms)
}

// Parse validates inventory data as if read from file, which names it in errors
// and anchors relative identity_file and known_hosts paths (to file's directory).
func Parse(file string, data []byte, platforms Platforms) (*Inventory, error) {
	return parseInventory(file, data, platforms, processEnv())
}

// inventoryEnv is what the loader takes from the process, replaced in tests.
type inventoryEnv struct {
	user func() string // "" when unknown
	home func() (string, error)
}

func processEnv() inventoryEnv {
	return inventoryEnv{
		user: func() string {
			if u := os.Getenv("USER"); u != "" {
				return u
			}
			// USER is often unset in containers and cron; the passwd entry still knows.
			if u, err := user.Current(); err == nil {
				return u.Username
			}
			return ""
		},
		home: os.UserHomeDir,
	}
}

type parser struct {
	file      string
	dir       string // absolute directory of file, for relative paths
	platforms Platforms
	env       inventoryEnv
	errs      inventoryErrors
	files     map[*yaml.Node]string // nodes read from files other than file (see fileOf)

	seen     map[string]int   // device name -> line of its name
	missing  map[string]error // built-in defaults the environment could not supply
	reported map[string]bool  // missing defaults already reported once
}

func parseInventory(file string, data []byte, platforms Platforms, env inventoryEnv) (*Inventory, error) {
	dir, err := filepath.Abs(filepath.Dir(file))
	if err != nil {
		return nil, fmt.Errorf("inventory %s: resolve its directory: %w", file, err)
	}
	p := &parser{
		file: file, dir: dir, platforms: platforms, env: env,
		errs: inventoryErrors{file: file}, seen: map[string]int{}, reported: map[string]bool{},
	}
	inv := p.parse(data)
	if err := p.errs.err(); err != nil {
		return nil, err
	}
	return inv, nil
}

func (p *parser) parse(data []byte) *Inventory {
	root := p.document(data)
	if root == nil {
		return nil
	}
	top, ok := p.mapping(root, "the inventory", topKeys, nil)
	if !ok || !p.version(root, top) {
		return nil // a file of another version or shape would only produce noise below
	}

	base, missing := p.builtinConn()
	p.missing = missing
	if f, ok := top["defaults"]; ok && !isNull(f.val) {
		if m, ok := p.mapping(f.val, "defaults", connKeys, connHints()); ok {
			base = base.over(p.conn(m))
		}
	}

	inv := &Inventory{File: p.file}
	inv.Recipe = p.recipe(top["recipe"].val)
	inv.Devices = append(p.devices(top["hosts"].val, topology.RoleHost, base), p.devices(top["switches"].val, topology.RoleSwitch, base)...)
	if noItems(top["hosts"].val) && noItems(top["switches"].val) {
		p.errorf(root, "no devices (expected at least one entry under hosts: or switches:)")
	}
	devs := make(map[string]DeviceSpec, len(inv.Devices))
	for _, d := range inv.Devices {
		devs[d.Name] = d
	}
	inv.Links = p.links(top["links"].val, devs)
	inv.Paths = p.paths(top["paths"].val, devs)
	return inv
}

// noItems is true for an absent, empty or empty-list section (not for one of the wrong type,
// which is reported by itself).
func noItems(n *yaml.Node) bool {
	v := deref(n)
	return isNull(v) || v.Kind == yaml.SequenceNode && len(v.Content) == 0
}

func (p *parser) version(root *yaml.Node, top map[string]field) bool {
	f, ok := top["version"]
	if !ok {
		p.errorf(root, "version missing (expected version: %d)", Version)
		return false
	}
	v := deref(f.val)
	var i int64
	if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!int" || v.Decode(&i) != nil {
		p.errorf(f.val, "version: %s is not a version number (expected version: %d)", describe(f.val), Version)
		return false
	}
	if i != Version {
		p.errorf(f.val, "version: %d is not supported by this roceaudit (expected %d)", i, Version)
		return false
	}
	return true
}

// document parses data as exactly one YAML document and returns its root node.
func (p *parser) document(data []byte) *yaml.Node {
	const empty = "empty inventory (expected a YAML mapping starting with version: 1)"
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			p.errs.add(1, 1, errors.New(empty))
		} else {
			p.syntaxError(data, err)
		}
		return nil
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case err == nil:
		p.errorf(&next, "a second YAML document (expected one inventory per file)")
		return nil
	case !errors.Is(err, io.EOF):
		p.syntaxError(data, err)
		return nil
	}
	if len(doc.Content) == 0 || isNull(doc.Content[0]) {
		p.errs.add(1, 1, errors.New(empty))
		return nil
	}
	return doc.Content[0]
}

var yamlErrLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// syntaxError reports a yaml.v3 parse error at its line. yaml.v3 gives no column, and for a
// tab in the indentation it gives the line of the value being scanned, which may be above
// the tab; so for that, the most common mistake, the tab itself is looked for.
func (p *parser) syntaxError(data []byte, err error) {
	line, col, e := syntaxPlace(data, err)
	p.errs.add(line, col, e)
}

func syntaxPlace(data []byte, err error) (int, int, error) {
	m := yamlErrLine.FindStringSubmatch(err.Error())
	if m == nil {
		return 0, 0, fmt.Errorf("invalid YAML: %w", err)
	}
	line, _ := strconv.Atoi(m[1])
	msg, col := m[2], 0
	if strings.Contains(msg, "tab") {
		lines := strings.Split(string(data), "\n")
		for i := max(line-1, 0); i < len(lines); i++ {
			indent := lines[i][:len(lines[i])-len(strings.TrimLeft(lines[i], " \t"))]
			if j := strings.IndexByte(indent, '\t'); j >= 0 {
				line, col = i+1, j+1
				msg += " (indent with spaces: YAML does not allow tabs in indentation)"
				break
			}
		}
	}
	return line, col, fmt.Errorf("invalid YAML: %s", msg)
}

// errorOnce reports a problem shared by many devices (a default the environment lacks) at
// the first device it affects.
func (p *parser) errorOnce(key string, n *yaml.Node, err error) {
	if p.reported[key] {
		return
	}
	p.reported[key] = true
	p.errs.addIn(p.fileOf(n), n.Line, n.Column, err)
}
