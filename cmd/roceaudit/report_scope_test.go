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

// The broken demo's biggest cause is the lossy hop: PFC off on leaf1 Ethernet12 explains its
// SW-PFC, the LINK-PFC of its link, the XFER-RETRANS naming its queue-3 drops and the XFER-BW
// of the transfer through it.
func TestDemoBrokenOpensWithTheLossyHop(t *testing.T) {
	code, out, errs := run(t, "demo", "--scenario", "broken", "--format", "json")
	if code != exitFailed {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rep := decodeReport(t, out)
	if len(rep.Causes) == 0 {
		t.Fatal("no causes in the JSON report")
	}
	c := rep.Causes[0]
	var got []string
	for _, e := range c.Explains {
		got = append(got, e.Check)
	}
	slices.Sort(got)
	if c.Device != "leaf1" || c.Interface != "Ethernet12" || c.Fact != "PFC" ||
		!slices.Equal(got, []string{"LINK-PFC", "SW-PFC", "XFER-BW", "XFER-RETRANS"}) {
		t.Errorf("first cause %+v explains %v", c, got)
	}
	explained := 0
	for _, c := range rep.Causes {
		explained += c.Total()
	}
	if want := rep.Summary["fail"] + rep.Summary["error"] + rep.Summary["warn"]; explained != want {
		t.Errorf("causes explain %d results, want every failure, error and warning (%d)", explained, want)
	}
}
