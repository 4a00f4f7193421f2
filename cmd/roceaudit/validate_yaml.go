package main

import (
	"fmt"

	"github.com/roceaudit/roceaudit/inventory"
)

// printInventoryYAML prints what the inventory became, whatever its source, as a roceaudit
// inventory file: `validate --format yaml` shows an import and lets the user keep it.
func (a *app) printInventoryYAML(inv *inventory.Inventory) error {
	out, err := inv.MarshalYAML()
	if err != nil {
		return err
	}
	_, err = a.stdout.Write(out)
	return err
}

// inventoryWarnings shows on stderr what an import read but did not use.
func (a *app) inventoryWarnings(inv *inventory.Inventory) {
	for _, w := range inv.Warnings {
		a.warn(w)
	}
}

// warn tells the user on stderr of something that does not stop the run.
func (a *app) warn(msg string) {
	fmt.Fprintln(a.stderr, "roceaudit: warning: "+msg)
}
