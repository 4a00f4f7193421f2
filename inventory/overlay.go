package inventory

import (
	"fmt"
	"os"

	"gopkg.in/yaml.v3"

	"github.com/roceaudit/roceaudit/recipe"
)

// An overlay (`--defaults FILE`) gives an imported source what its format cannot say: how to
// log in. It is strict YAML, read like the native inventory:
//
//	defaults:  {user: admin, identity_file: ~/.ssh/lab}   # under what the source sets
//	recipe:    {roce_priority: 3}
//	devices:                                              # over what the source sets
//	  leaf1: {user: cumulus, password_env: LEAF_PASSWORD}
//	platforms: {dell-sonic: sonic}                         # NetBox platform slug -> platform
var overlayKeys = []string{"defaults", "recipe", "devices", "platforms"}

type overlay struct {
	file      string
	base      connSettings
	recipe    recipe.Recipe
	devices   map[string]overlayDevice
	order     []string // device names in file order
	platforms map[string]string
}

type overlayDevice struct {
	conn connSettings
	at   *yaml.Node
}

// loadOverlay reads the overlay at path; "" is no overlay.
func loadOverlay(path string, platforms Platforms) (*overlay, error) {
	if path == "" {
		return nil, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read --defaults overlay: %w", err)
	}
	return parseOverlay(path, data, platforms, processEnv())
}

func parseOverlay(file string, data []byte, platforms Platforms, env inventoryEnv) (*overlay, error) {
	ip, err := newImportParser(file, platforms, env)
	if err != nil {
		return nil, err
	}
	p := ip.parser
	ov := &overlay{file: file, recipe: recipe.Default(), devices: map[string]overlayDevice{}, platforms: map[string]string{}}
	root := ip.document(data, "overlay", "an overlay with defaults:, recipe:, devices: or platforms:")
	if root == nil {
		return nil, p.errs.err()
	}
	top, ok := p.mapping(root, "the overlay", overlayKeys, nil)
	if !ok {
		return nil, p.errs.err()
	}
	if f, ok := top["defaults"]; ok && !isNull(f.val) {
		if m, ok := p.mapping(f.val, "defaults", connKeys, connHints()); ok {
			ov.base = p.conn(m)
		}
	}
	ov.recipe = p.recipe(top["recipe"].val)
	if f, ok := top["devices"]; ok && !isNull(f.val) {
		devs, _ := ip.entries(f.val, "devices")
		for _, d := range devs.list {
			var c connSettings
			if !isNull(d.val) {
				if m, ok := p.mapping(d.val, fmt.Sprintf("device %q", d.key.Value), connKeys, connHints()); ok {
					c = p.conn(m)
				}
			}
			ov.devices[d.key.Value] = overlayDevice{conn: c, at: d.key}
			ov.order = append(ov.order, d.key.Value)
		}
	}
	if f, ok := top["platforms"]; ok && !isNull(f.val) {
		slugs, _ := ip.entries(f.val, "platforms")
		for _, s := range slugs.list {
			v, ok := p.str(s.val, "platforms."+s.key.Value, "a platform name or none")
			if !ok {
				continue
			}
			if _, known := ip.roleOf(v, s.val, "platforms."+s.key.Value); known || v == platformNone {
				ov.platforms[s.key.Value] = v
			}
		}
	}
	if err := p.errs.err(); err != nil {
		return nil, err
	}
	return ov, nil
}

// apply merges the overlay into an import's devices and reports, in the overlay file,
// a device it names that the source does not have.
func (ov *overlay) apply(devs []importedDevice, base connSettings) ([]importedDevice, connSettings, error) {
	if ov == nil {
		return devs, base, nil
	}
	errs := inventoryErrors{file: ov.file}
	known := map[string]bool{}
	for i := range devs {
		known[devs[i].spec.Name] = true
		if od, ok := ov.devices[devs[i].spec.Name]; ok {
			devs[i].conn = devs[i].conn.over(od.conn)
		}
	}
	for _, name := range ov.order {
		if !known[name] {
			at := ov.devices[name].at
			errs.add(at.Line, at.Column, fmt.Errorf("devices: %q is not a device of the imported source", name))
		}
	}
	return devs, base.over(ov.base), errs.err()
}
