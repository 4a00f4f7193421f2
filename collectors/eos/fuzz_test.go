package eos

import "testing"

// The fuzz targets check that no output, however malformed, panics a parser: each returns a
// value or an error.

func seed(f *testing.F, cmd string) {
	for _, s := range []string{"healthy", "broken"} {
		if b, err := readSeed(s, cmd); err == nil {
			f.Add(b)
		}
	}
	f.Add("")
	f.Add("{}")
	f.Add("null")
}

func FuzzParseInterfaces(f *testing.F) {
	seed(f, CmdInterfaces)
	f.Fuzz(func(t *testing.T, s string) { _, _ = ParseInterfaces(s) })
}

func FuzzParseLLDP(f *testing.F) {
	seed(f, CmdLLDP)
	f.Fuzz(func(t *testing.T, s string) { _, _ = ParseLLDP(s) })
}

func FuzzParseVersionAndCounters(f *testing.F) {
	seed(f, CmdVersion)
	seed(f, CmdPFCCounters)
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = ParseVersion(s)
		_, _ = ParsePFCCounters(s)
	})
}

func FuzzParseFlowcontrol(f *testing.F) {
	seed(f, CmdFlowcontrol)
	f.Fuzz(func(t *testing.T, s string) { _, _ = ParseFlowcontrol(s) })
}

func FuzzParseRunningConfig(f *testing.F) {
	seed(f, CmdRunningConfig)
	f.Fuzz(func(t *testing.T, s string) {
		rc, err := ParseRunningConfig(s)
		if err != nil {
			return
		}
		for _, ic := range rc.Interfaces {
			if e, err := rc.EffectiveQoS(ic); err == nil {
				_ = e.PFCPriorities(rc.PFCAllOff)
				_ = e.Schedulers()
				_ = e.ECNQueues()
			}
		}
	})
}
