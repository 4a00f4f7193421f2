package nxos

import "testing"

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
