package sonic

// ParseLLDPTable as it was before scanTables: the oracle of TestLLDPTableAsBefore.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/topology"
)

func oldParseLLDPTable(out string) ([]topology.LLDPNeighbor, error) {
	for _, t := range parseTables(out) {
		local, dev, pid := t.column("LocalPort"), t.column("RemoteDevice"), t.column("RemotePortID")
		if local < 0 || dev < 0 || pid < 0 {
			continue
		}
		descr := t.column("RemotePortDescr")
		ns := []topology.LLDPNeighbor{}
		for _, r := range t.rows {
			n := topology.LLDPNeighbor{LocalPort: r.cells[local], SystemName: r.cells[dev], PortID: r.cells[pid]}
			if descr >= 0 {
				n.PortDescr = r.cells[descr]
			}
			if n.LocalPort == "" {
				return nil, fmt.Errorf("%s: row without a LocalPort: %q", CmdLLDP, strings.TrimSpace(r.line))
			}
			ns = append(ns, n)
		}
		return ns, nil
	}
	return nil, fmt.Errorf("%s: no table with LocalPort, RemoteDevice and RemotePortID columns in the output", CmdLLDP)
}

func checkLLDPTable(t *testing.T, out string) {
	t.Helper()
	want, werr := oldParseLLDPTable(out)
	got, gerr := ParseLLDPTable(out)
	if errText(werr) != errText(gerr) {
		t.Fatalf("LLDP table of %.200q: error %q, was %q", out, errText(gerr), errText(werr))
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("LLDP table of %.200q (-old +new):\n%s", out, d)
	}
}

func TestLLDPTableAsBefore(t *testing.T) {
	for _, in := range diffInputs(t) {
		checkLLDPTable(t, in)
	}
}

func FuzzLLDPTableAsBefore(f *testing.F) {
	smallFirst(f, false, "LocalPort  RemoteDevice  RemotePortID\n---  ---  ---\n  x  y\nE0  d  p\n\nLocalPort  RemoteDevice  RemotePortID\n--  --  --\nE1  a  b\n")
	f.Fuzz(func(t *testing.T, out string) { checkLLDPTable(t, out) })
}
