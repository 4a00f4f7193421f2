package sonic

import (
	"context"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/collectors/internal/fixturerunner"
	"github.com/roceaudit/roceaudit/collectors/internal/texttable"
	"github.com/roceaudit/roceaudit/lab"
	"github.com/roceaudit/roceaudit/topology"
)

// labOutputs are the answers of every SONiC switch of the lab's scenarios and of the
// generated 8-rail fabric, by command, each distinct answer once: the differential tests'
// inputs beside the fixtures.
var labOutputs = sync.OnceValues(func() (map[string][]string, error) {
	out := map[string][]string{}
	seen := map[string]bool{}
	var devs []lab.Emulated
	for _, sc := range lab.Scenarios() {
		d, _, err := lab.Emulate(lab.Options{Scenario: sc}, 0)
		if err != nil {
			return nil, err
		}
		devs = append(devs, d...)
	}
	d, _, err := lab.Emulate(lab.Options{Generate: &lab.Generate{Hosts: 960, Leaves: 32, Spines: 8, Rails: 8}}, 0)
	if err != nil {
		return nil, err
	}
	for _, e := range append(devs, d...) {
		if e.Platform != Descriptor().Name() {
			continue
		}
		for _, cmd := range []string{CmdVersion, CmdRunningConfig, CmdLLDP, CmdPFCCounters, CmdQueueCounters, CmdInterfaceCounters} {
			stdout, _, _ := e.Device.Exec(context.Background(), cmd)
			if !seen[cmd+"\x00"+stdout] {
				seen[cmd+"\x00"+stdout] = true
				out[cmd] = append(out[cmd], stdout)
			}
		}
	}
	return out, nil
})

// diffInputs are the fixture files and every lab answer.
func diffInputs(t *testing.T) []string {
	t.Helper()
	ins := fixturerunner.Seeds(fixtures{}, "verbatim", "healthy", "broken")
	byCmd, err := labOutputs()
	if err != nil {
		t.Fatal(err)
	}
	for _, outs := range byCmd {
		ins = append(ins, outs...)
	}
	return ins
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// checkCounterParsers compares the counter parsers with the maps they built before.
func checkCounterParsers(t *testing.T, out string) {
	t.Helper()
	for _, p := range []struct {
		name     string
		old, new func(string) (PortCounters, error)
	}{
		{"pfc", oldParsePFCCounters, ParsePFCCounters},
		{"queue", oldParseQueueCounters, ParseQueueCounters},
		{"interface", oldParseInterfaceCounters, ParseInterfaceCounters},
	} {
		want, werr := p.old(out)
		got, gerr := p.new(out)
		if errText(werr) != errText(gerr) {
			t.Fatalf("%s counters of %.200q: error %q, was %q", p.name, out, errText(gerr), errText(werr))
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("%s counters of %.200q (-old +new):\n%s", p.name, out, d)
		}
	}
}

func TestCounterParsersAsBefore(t *testing.T) {
	for _, in := range diffInputs(t) {
		checkCounterParsers(t, in)
	}
}

// Collect's merge of a port's counters is the old one, whichever commands answer.
func TestCounterSetPortAsBefore(t *testing.T) {
	byCmd, err := labOutputs()
	if err != nil {
		t.Fatal(err)
	}
	fail := func(cmd string) string { return "" } // an empty answer is a parse error
	for i, pfcOut := range append(byCmd[CmdPFCCounters], fail(CmdPFCCounters)) {
		for j, queueOut := range append(byCmd[CmdQueueCounters], fail(CmdQueueCounters)) {
			for k, ifaceOut := range append(byCmd[CmdInterfaceCounters], fail(CmdInterfaceCounters)) {
				if i+j+k > 6 { // enough pairings
					continue
				}
				var old oldCounterSet
				cs := counterSet{notes: map[[3]int]string{}}
				old.pfc, old.pfcEv = readOut(CmdPFCCounters, pfcOut, oldParsePFCCounters)
				cs.pfc, cs.pfcEv = readOut(CmdPFCCounters, pfcOut, scanPFCCounters)
				old.queue, old.queueEv = readOut(CmdQueueCounters, queueOut, oldParseQueueCounters)
				cs.queue, cs.queueEv = readOut(CmdQueueCounters, queueOut, scanQueueCounters)
				old.iface, old.ifaceEv = readOut(CmdInterfaceCounters, ifaceOut, oldParseInterfaceCounters)
				cs.iface, cs.ifaceEv = readOut(CmdInterfaceCounters, ifaceOut, scanInterfaceCounters)
				ports := map[string]bool{"Ethernet9999": true}
				for _, pc := range []PortCounters{old.pfc, old.queue, old.iface} {
					for p := range pc {
						ports[p] = true
					}
				}
				for p := range ports {
					for range 2 { // the second time from the notes' memo
						if d := cmp.Diff(old.port(p), cs.port(p)); d != "" {
							t.Fatalf("port %s (-old +new):\n%s", p, d)
						}
					}
				}
			}
		}
	}
}

// readOut is evidence.Read of an answer.
func readOut[T any](cmd, out string, parse func(string) (T, error)) (T, topology.Evidence) {
	ev := topology.Evidence{Command: cmd}
	v, err := parse(out)
	if err != nil {
		ev.Error = err.Error()
	}
	return v, ev
}

func FuzzCounterParsersAsBefore(f *testing.F) {
	smallFirst(f, false, "  Port Rx    PFC0    PFCx\n---------  ------  ------\nEthernet0  1,000   N/A\n\n Port Tx  PFC1\n------  -----\n E0  2\n", "     Port    TxQ    Counter/pkts    Drop/bytes  Counter/pkts\n---------  -----  --------------  ------  ---\nEthernet0    UC0  1  2  3\nEthernet0  ALL10  4 5  6\n", "IFACE  RX_OK  TX_OK\n----  ---  ---\nE0  1  2\nE0  3  N/A\n\nIFACE  RX_OK  TX_OK\n----  ---  ---\nE1  1  2\n")
	f.Fuzz(func(t *testing.T, out string) {
		checkCounterParsers(t, out)
		for _, l := range texttable.SplitLines(out) {
			if !mayBeRule(l) && len(texttable.RuleSpans(l)) > 0 {
				t.Fatalf("mayBeRule(%q) is false, RuleSpans finds %v", l, texttable.RuleSpans(l))
			}
		}
	})
}
