package linux

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/topology"
)

func TestParseDcbFixture(t *testing.T) {
	s := "inbox-dcb"
	got, err := ParseDcb(readFixture(t, s, "dcb_app.enp59s0f0np0"), readFixture(t, s, "dcb_pfc.enp59s0f0np0"), readFixture(t, s, "dcb_dcbx.enp59s0f0np0"))
	if err != nil {
		t.Fatal(err)
	}
	want := topology.HostQoS{Tool: "dcb", Trust: "dscp", DSCPToPrio: defaultDSCPMap(), PFC: pfc3, DCBXMode: "os"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestParseDcbVariants(t *testing.T) {
	pfc := `{"pfc_cap":8,"macsec_bypass":false,"delay":7,"prio_pfc":[false,false,false,true,false,false,false,false]}`
	tests := []struct {
		name           string
		app, pfc, dcbx string
		want           topology.HostQoS
	}{
		{"iproute2 < 6.5 pairs, firmware DCBX", `{"dscp_prio":[[26,3],[48,6]]}`, pfc, `{"cee":true,"ieee":true}`,
			topology.HostQoS{Tool: "dcb", Trust: "dscp", DSCPToPrio: map[int]int{26: 3, 48: 6}, PFC: pfc3, DCBXMode: "firmware"}},
		{"empty APP table means pcp; other selectors ignored", `{"default_prio":[0],"ethtype_prio":[[35078,3," "]]}`, pfc, `{"host":true,"ieee":true}`,
			topology.HostQoS{Tool: "dcb", Trust: "pcp", PFC: pfc3, DCBXMode: "os"}},
		{"nothing at all", `{}`, `{"pfc_cap":8,"macsec_bypass":false,"delay":0,"prio_pfc":[false,false,false,false,false,false,false,false]}`, "",
			topology.HostQoS{Tool: "dcb", Trust: "pcp"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseDcb(tc.app, tc.pfc, tc.dcbx)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestParseDcbErrors(t *testing.T) {
	pfc := `{"prio_pfc":[false,false,false,true,false,false,false,false]}`
	for name, in := range map[string][3]string{
		"app text format":   {"dscp-prio 0:0 24:3\n", pfc, ""},
		"app null":          {"null", pfc, ""},
		"DSCP 64":           {`{"dscp_prio":[[64,3]]}`, pfc, ""},
		"priority 8":        {`{"dscp_prio":[[26,8]]}`, pfc, ""},
		"DSCP by name":      {`{"dscp_prio":[["CS3",3]]}`, pfc, ""},
		"pair too short":    {`{"dscp_prio":[[26]]}`, pfc, ""},
		"pfc missing":       {`{}`, `{"pfc_cap":8}`, ""},
		"pfc seven entries": {`{}`, `{"prio_pfc":[false,false,false,true,false,false,false]}`, ""},
		"pfc error text":    {`{}`, "Attribute failed policy validation\n", ""},
		"dcbx text format":  {`{}`, pfc, "host ieee\n"},
	} {
		t.Run(name, func(t *testing.T) {
			if got, err := ParseDcb(in[0], in[1], in[2]); err == nil {
				t.Errorf("want an error, got %+v", got)
			}
		})
	}
}
