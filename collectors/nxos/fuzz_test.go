package nxos

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/roceaudit/roceaudit/collectors/internal/fuzzseed"
)

// The fuzz targets check that no output, however malformed, panics a parser.

func seed(f *testing.F, cmd string) {
	for _, s := range []string{"healthy", "broken"} {
		if b, err := readSeed(s, cmd); err == nil {
			f.Add(b)
		}
	}
	f.Add("")
	f.Add("{}")
	f.Add(`{"TABLE_interface":{"ROW_interface":{}}}`)
}

func FuzzParseInterface(f *testing.F) {
	seed(f, CmdInterface)
	f.Fuzz(func(t *testing.T, s string) { _, _ = ParseInterface(s) })
}

func FuzzParseLLDP(f *testing.F) {
	seed(f, CmdLLDP)
	f.Fuzz(func(t *testing.T, s string) { _, _ = ParseLLDP(s) })
}

func FuzzParseVersion(f *testing.F) {
	seed(f, CmdVersion)
	f.Fuzz(func(t *testing.T, s string) { _, _ = ParseVersion(s) })
}

func FuzzParseQoSConfig(f *testing.F) {
	seed(f, CmdQoSConfig)
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseQoSConfig(s)
		if err != nil {
			return
		}
		_, _ = c.Lossless()
		_, _, _ = c.Queues(nil)
		for _, iq := range c.Interfaces {
			_, _ = c.Classify(iq)
			_, _, _ = c.Queues(iq)
		}
	})
}

func FuzzParsePFCOper(f *testing.F) {
	for _, s := range []string{
		"============================================================\nPort               Mode Oper(VL bmap)  RxPPP      TxPPP\n============================================================\n\nEthernet1/1        Auto Off           0          0\nEthernet1/1/1      Auto On  (8)       0          0\n",
		`{"TABLE_module": {"ROW_module": {"TABLE_pfc_interface": {"ROW_pfc_interface": {"if_name_str": "Ethernet1/1", "admin": "Auto", "oper": "On"}}}}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = ParsePFCOper(s)
	})
}

func FuzzParseQueuing(f *testing.F) {
	seed(f, CmdQueuingJSON)
	seed(f, CmdQueuing)
	f.Fuzz(func(t *testing.T, s string) { _, _ = ParseQueuing(s) })
}

// The interface rows' scan decodes exactly what encoding/json decodes, or declines.
func FuzzScanInterfaceRows(f *testing.F) {
	seeds := fuzzseed.Minis(f, readSeed, CmdInterface, 2, "healthy", "broken", "aiml", "portchannel")
	for _, sc := range []string{"healthy", "broken"} {
		if b, err := readSeed(sc, CmdInterface); err == nil {
			seeds = append(seeds, b)
		}
	}
	addSeeds(f, append(seeds, "", "{}", `{"TABLE_interface":{"ROW_interface":{}}}`,
		`{"TABLE_interface":{"ROW_interface":[{"interface":"Ethernet1/1","eth_mtu":"9216","eth_speed":100000,"eth_bw":100000000,"eth_bundle":null,"eth_inpause":"null","state":"up","other":{"a":[1]}},{"interface":"Ethernet1/2","eth_mtu":9216,"eth_speed":"100 Gb/s","eth_bundle":"12"}]}}`,
		`{"TABLE_interface":{"ROW_interface":{"interface":"Ethernet1/1","eth_mtu":1.5}}}`, `{"TABLE_interface":{"ROW_interface":{"Interface":"x"}}}`,
		`{"TABLE_interface":{"ROW_interface":[]}}`, `{"output":{"body":{}}}`, `{"TABLE_interface":{"ROW_interface":{"eth_mtu":"","eth_bw":-0}}}`,
		`{"TABLE_interface":{"ROW_interface":{"eth_speed":1e400}}}`,
	)...)
	f.Fuzz(func(t *testing.T, out string) {
		got, ok := scanInterfaceRows(out)
		if !ok {
			return
		}
		want, err := decodeInterfaceRows(out)
		if err != nil {
			t.Fatalf("%q: the scan read %+v where encoding/json fails: %v", out, got, err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("%q: scan and encoding/json differ (-json +scan):\n%s", out, d)
		}
	})
}

// The scan reads the recorded replies itself: were it to decline them, the fast path would
// silently never run.
func TestScanInterfaceRowsReadsFixtures(t *testing.T) {
	read := 0
	for _, scenario := range []string{"healthy", "broken", "aiml", "portchannel"} {
		out, err := readSeed(scenario, CmdInterface)
		if err != nil {
			continue
		}
		read++
		if _, ok := scanInterfaceRows(out); !ok {
			t.Errorf("%s: the scan declines the recorded %s", scenario, CmdInterface)
		}
	}
	if read == 0 {
		t.Fatal("no recorded reply")
	}
}
