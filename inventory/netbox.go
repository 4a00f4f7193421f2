package inventory

import "errors"

func loadNetBox(url string, platforms Platforms, env inventoryEnv, ov *overlay, opts Options) (*Inventory, error) {
	return nil, errors.New("todo")
}
