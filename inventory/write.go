package inventory

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// MarshalYAML writes inv as a roceaudit inventory file that Load reads back to the same
// devices, links, paths and recipe: what an import became, to look at or to keep. Built-in
// defaults are left out (user and port, so that ~/.ssh/config still applies); a password is
// only ever the name of its environment variable.
func (inv *Inventory) MarshalYAML() ([]byte, error) {
	doc := mapNode()
	addKV(doc, "version", Version)
	if r := recipeOverrides(inv.Recipe); len(r.Content) > 0 {
		doc.Content = append(doc.Content, scalarNode("recipe"), r)
	}
	for _, role := range []topology.Role{topology.RoleHost, topology.RoleSwitch} {
		list := &yaml.Node{Kind: yaml.SequenceNode}
		for _, d := range inv.Devices {
			if d.Role == role {
				list.Content = append(list.Content, deviceNode(d))
			}
		}
		if len(list.Content) > 0 {
			doc.Content = append(doc.Content, scalarNode(sectionOf(role)), list)
		}
	}
	if len(inv.Links) > 0 {
		links := &yaml.Node{Kind: yaml.SequenceNode}
		for _, l := range inv.Links {
			links.Content = append(links.Content, pairNode(l.A.String(), l.B.String()))
		}
		doc.Content = append(doc.Content, scalarNode("links"), links)
	}
	if len(inv.Paths) > 0 {
		paths := &yaml.Node{Kind: yaml.SequenceNode}
		for _, p := range inv.Paths {
			paths.Content = append(paths.Content, pairNode(p[0], p[1]))
		}
		doc.Content = append(doc.Content, scalarNode("paths"), paths)
	}
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "# roceaudit inventory, from %s\n", inv.File)
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("write inventory YAML: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("write inventory YAML: %w", err)
	}
	return buf.Bytes(), nil
}

func deviceNode(d DeviceSpec) *yaml.Node {
	n := mapNode()
	addKV(n, "name", d.Name)
	addKV(n, "address", d.Address)
	addKV(n, "platform", d.Platform)
	if len(d.Interfaces) > 0 {
		l := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, i := range d.Interfaces {
			l.Content = append(l.Content, scalarNode(i))
		}
		n.Content = append(n.Content, scalarNode("interfaces"), l)
	}
	if d.GIDIndex != nil {
		addKV(n, "gid_index", *d.GIDIndex)
	}
	c := d.Conn
	if !c.UserDefault {
		addKV(n, "user", c.User)
	}
	if !c.PortDefault {
		addKV(n, "port", c.Port)
	}
	if c.IdentityFile != "" {
		addKV(n, "identity_file", c.IdentityFile)
	}
	if c.KnownHosts != "" && c.KnownHosts != builtinKnownHosts() {
		addKV(n, "known_hosts", c.KnownHosts)
	}
	if c.Timeout != 0 && c.Timeout != defaultTimeout {
		addKV(n, "timeout", c.Timeout.String())
	}
	if c.Sudo {
		addKV(n, "sudo", true)
	}
	if c.Jump != "" {
		addKV(n, "jump", c.Jump)
	}
	if c.PasswordEnv != "" {
		addKV(n, "password_env", c.PasswordEnv)
	}
	return n
}

// builtinKnownHosts is the known_hosts file a device gets when it names none.
func builtinKnownHosts() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, strings.TrimPrefix(defaultKnownHosts, "~/"))
}

// recipeOverrides is the recipe's keys that differ from the defaults.
func recipeOverrides(r recipe.Recipe) *yaml.Node {
	n := mapNode()
	def := reflect.ValueOf(recipe.Default())
	rv := reflect.ValueOf(r)
	for i := range rv.NumField() {
		if reflect.DeepEqual(rv.Field(i).Interface(), def.Field(i).Interface()) {
			continue
		}
		tag, _, _ := strings.Cut(rv.Type().Field(i).Tag.Get("yaml"), ",")
		v := &yaml.Node{}
		if err := v.Encode(rv.Field(i).Interface()); err == nil {
			if v.Kind == yaml.SequenceNode {
				v.Style = yaml.FlowStyle
			}
			n.Content = append(n.Content, scalarNode(tag), v)
		}
	}
	return n
}

func mapNode() *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode} }

func scalarNode(s string) *yaml.Node {
	n := &yaml.Node{}
	_ = n.Encode(s) // a string always encodes; quoting is yaml.v3's, so "yes" stays a string
	return n
}

func addKV(m *yaml.Node, key string, v any) {
	val := &yaml.Node{}
	_ = val.Encode(v) // strings, ints and bools only
	m.Content = append(m.Content, scalarNode(key), val)
}

func pairNode(a, b string) *yaml.Node {
	return &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle, Content: []*yaml.Node{scalarNode(a), scalarNode(b)}}
}
