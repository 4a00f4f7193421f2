package linux

import (
	"os"
	"path/filepath"
	"testing"
)

// seedFixtures adds every fixture file named name (in any scenario) to the fuzz corpus.
func seedFixtures(f *testing.F, glob string) {
	f.Helper()
	files, err := filepath.Glob(filepath.Join(fixtureRoot, "*", glob))
	if err != nil || len(files) == 0 {
		f.Fatalf("no fixture matches %s", glob)
	}
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
}

// The fuzz targets prove the parsers never panic on arbitrary text; run them with e.g.
// go test -fuzz=FuzzParseMlnxQos -fuzztime=30s ./collectors/linux

func FuzzParseMlnxQos(f *testing.F) {
	seedFixtures(f, "mlnx_qos.*[^rt]") // not the .exit/.stderr companions
	f.Add("PFC configuration:\n\tenabled 0 0 0 1 0 0 0 0\ntc: 7 ratelimit: x, tsa: y\n\t priority: 9\n")
	f.Fuzz(func(t *testing.T, s string) {
		q, err := ParseMlnxQos(s)
		if err == nil && q.Tool != "mlnx_qos" {
			t.Errorf("parsed without the tool name: %+v", q)
		}
	})
}

func FuzzParseIbvDevinfo(f *testing.F) {
	seedFixtures(f, "ibv_devinfo")
	f.Add("hca_id:\tx\n\t\tport:\t1\n\t\t\tstate:\t\t\t( (1)\n")
	f.Fuzz(func(t *testing.T, s string) {
		ports, err := ParseIbvDevinfo(s)
		if err == nil {
			for dp, p := range ports {
				if dp.Port < 1 || p.LinkLayer == "" {
					t.Errorf("%v parsed as %+v", dp, p)
				}
			}
		}
	})
}

func FuzzParseSysfsGIDs(f *testing.F) {
	seedFixtures(f, "gids")
	f.Fuzz(func(t *testing.T, s string) { _, _ = ParseSysfsGIDs(s) })
}

func FuzzParseRdmaLink(f *testing.F) {
	seedFixtures(f, "rdma_link")
	f.Fuzz(func(t *testing.T, s string) { _, _ = ParseRdmaLink(s) })
}

func FuzzParseDcb(f *testing.F) {
	s := "inbox-dcb"
	b := func(name string) string {
		data, err := os.ReadFile(filepath.Join(fixtureRoot, s, name))
		if err != nil {
			f.Fatal(err)
		}
		return string(data)
	}
	f.Add(b("dcb_app.enp59s0f0np0"), b("dcb_pfc.enp59s0f0np0"), b("dcb_dcbx.enp59s0f0np0"))
	f.Fuzz(func(t *testing.T, app, pfc, dcbx string) { _, _ = ParseDcb(app, pfc, dcbx) })
}

func FuzzParseLLDPNeighbors(f *testing.F) {
	seedFixtures(f, "lldpcli")
	f.Fuzz(func(t *testing.T, s string) {
		ns, err := ParseLLDPNeighbors(s)
		if err == nil {
			for _, n := range ns {
				if n.LocalPort == "" {
					t.Errorf("neighbour without a local port: %+v", n)
				}
			}
		}
	})
}
