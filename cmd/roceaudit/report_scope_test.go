package main

import (
	"slices"
	"strings"
	"testing"
)

// transfer reports the devices of its transfer, not every device of the inventory.
func TestTransferListsOnlyItsDevices(t *testing.T) {
	l := startLab(t, "healthy")
	code, out, errs := run(t, "transfer", "-i", l.InventoryPath, "gpu06:ens1f0np0", "gpu01:ens1f0np0", "--format", "json", "--duration", "1s")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var names []string
	for _, d := range decodeReport(t, out).Devices {
		names = append(names, d.Name)
	}
	for _, want := range []string{"gpu06", "gpu01", "leaf1", "leaf3"} {
		if !slices.Contains(names, want) {
			t.Errorf("device %s of the transfer is not listed: %v", want, names)
		}
	}
	for _, not := range []string{"gpu02", "gpu05", "leaf2", "leaf4"} {
		if slices.Contains(names, not) {
			t.Errorf("unrelated device %s is listed: %v", not, names)
		}
	}
	_, text, _ := run(t, "transfer", "-i", l.InventoryPath, "gpu06:ens1f0np0", "gpu01:ens1f0np0", "--no-color", "--duration", "1s")
	if strings.Contains(text, "no results") {
		t.Errorf("text lists devices without results:\n%s", text)
	}
}
