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
//	  gpu01: {address: 10.0.0.11}                         # the address too
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
	conn    connSettings
	address *string // over the source's (an Ansible ansible_host it cannot evaluate, say)
	keys    map[string]bool
	at      *yaml.Node
}

// sets is true when the overlay sets key (address:, user:, ...) for the device.
func (ov *overlay) sets(name, key string) bool {
	return ov != nil && ov.devices[name].keys[key]
}

// overlayDeviceKeys are what devices: may set for one device.
var overlayDeviceKeys = append([]string{"address"}, connKeys...)

// address is the overlay's address for a device, nil when it sets none.
func (ov *overlay) address(name string) *string {
	if ov == nil {
		return nil
	}
	return ov.devices[name].address
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
			od := overlayDevice{at: d.key}
			if !isNull(d.val) {
				if m, ok := p.mapping(d.val, fmt.Sprintf("device %q", d.key.Value), overlayDeviceKeys, connHints()); ok {
					od.conn, od.keys = p.conn(m), map[string]bool{}
					for k := range m {
						od.keys[k] = true
					}
					if f, ok := m["address"]; ok {
						if addr, ok := p.address(f); ok {
							od.address = &addr
						}
					}
				}
			}
			ov.devices[d.key.Value] = od
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
			if od.address != nil {
				devs[i].spec.Address = *od.address
			}
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
