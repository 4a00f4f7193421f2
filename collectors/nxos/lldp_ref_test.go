package nxos

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/collectors/internal/fuzzseed"
	"github.com/roceaudit/roceaudit/collectors/internal/natural"
	"github.com/roceaudit/roceaudit/topology"
)

// parseLLDPRef is ParseLLDP before the scan (encoding/json throughout), kept as the reference
// the new one must agree with.
func parseLLDPRef(out string) ([]topology.LLDPNeighbor, error) {
	if strings.TrimSpace(out) == "" {
		return []topology.LLDPNeighbor{}, nil
	}
	if err := descriptor.Refused(out); err != nil {
		return nil, fmt.Errorf("%s: %w", CmdLLDP, err)
	}
	b, err := body(out)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", CmdLLDP, err)
	}
	var raw struct {
		Table *struct {
			Row json.RawMessage `json:"ROW_nbor_detail"`
		} `json:"TABLE_nbor_detail"`
		Count *num `json:"neigh_count"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("%s: unexpected shape: %w", CmdLLDP, err)
	}
	if raw.Table == nil {
		if raw.Count != nil && raw.Count.Set && raw.Count.V == 0 {
			return []topology.LLDPNeighbor{}, nil
		}
		return nil, fmt.Errorf("%s: no TABLE_nbor_detail in the output", CmdLLDP)
	}
	type row struct {
		Local    string `json:"l_port_id"`
		SysName  string `json:"sys_name"`
		PortID   string `json:"port_id"`
		PortDesc string `json:"port_desc"`
		Chassis  string `json:"chassis_id"`
		Mgmt     string `json:"mgmt_addr"`
	}
	rs, err := rows[row](raw.Table.Row)
	if err != nil {
		return nil, fmt.Errorf("%s: ROW_nbor_detail: %w", CmdLLDP, err)
	}
	res := []topology.LLDPNeighbor{}
	for _, r := range rs {
		if r.Local == "" {
			return nil, fmt.Errorf("%s: a neighbour row has no l_port_id", CmdLLDP)
		}
		res = append(res, topology.LLDPNeighbor{LocalPort: LongName(r.Local), SystemName: tlv(r.SysName),
			PortID: tlv(r.PortID), PortDescr: tlv(r.PortDesc), ChassisID: tlv(r.Chassis), MgmtAddress: tlv(r.Mgmt)})
	}
	sort.SliceStable(res, func(a, b int) bool { return natural.Order{}.Less(res[a].LocalPort, res[b].LocalPort) })
	return res, nil
}

func lldpCases(t testing.TB) []string {
	var cases []string
	for _, s := range []string{"healthy", "broken", "aiml", "portchannel"} {
		if b, err := readSeed(s, CmdLLDP); err == nil {
			cases = append(cases, b, `{"output":{"body":`+b+`}}`, b+" ", b+"x")
		}
	}
	if len(cases) == 0 {
		t.Fatal("no recorded reply")
	}
	row := `{"l_port_id":"Eth1/2","sys_name":"h","port_id":"p","port_desc":"d","chassis_id":"c","mgmt_addr":"not advertised"}`
	return append(cases, "", " ", "{}", "null", "[]", `{"neigh_count":"0"}`, `{"neigh_count":0}`, `{"neigh_count":"2"}`,
		`{"neigh_count":"x"}`, `{"TABLE_nbor_detail":null}`, `{"TABLE_nbor_detail":{}}`, `{"TABLE_nbor_detail":{"ROW_nbor_detail":[]}}`,
		`{"TABLE_nbor_detail":{"ROW_nbor_detail":"x"}}`, `{"TABLE_nbor_detail":{"ROW_nbor_detail":`+row+`}}`,
		`{"TABLE_nbor_detail":{"ROW_nbor_detail":[`+row+`,`+row+`]},"neigh_count":"x"}`,
		`{"TABLE_nbor_detail":{"ROW_nbor_detail":[`+row+`,null]}}`, `{"TABLE_nbor_detail":{"ROW_nbor_detail":[`+row+`,{}]}}`,
		`{"table_nbor_detail":{"ROW_nbor_detail":`+row+`}}`, `{"TABLE_nbor_detail":{"row_nbor_detail":`+row+`}}`,
		`{"TABLE_nbor_detail":{"ROW_nbor_detail":{"L_PORT_ID":"Eth1/1"}}}`, `{"TABLE_nbor_detail":{"ROW_nbor_detail":{"l_port_id":"Eth\u00311/1"}}}`,
		`{"TABLE_nbor_detail":{"ROW_nbor_detail":{"l_port_id":"Ethernet1/1","l_port_id":"Eth1/3"}}}`,
		`{"TABLE_nbor_detail":{"ROW_nbor_detail":{"l_port_id":"Ethernet1/1","sys_name":null}}}`,
		`{"TABLE_nbor_detail":{"ROW_nbor_detail":{"l_port_id":"mgmt0","sys_name":5}}}`)
}

// The scan and its fallback agree with the reference: the same neighbours, and an error
// exactly when the reference had one.
func TestLLDPAgreesWithReference(t *testing.T) {
	for i, s := range lldpCases(t) {
		got, gerr := ParseLLDP(s)
		want, werr := parseLLDPRef(s)
		if (gerr != nil) != (werr != nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("case %d %.120q:\n got %v, %v\nwant %v, %v", i, s, got, gerr, want, werr)
		}
	}
}

func FuzzLLDPAgreesWithReference(f *testing.F) {
	seeds := fuzzseed.Minis(f, readSeed, CmdLLDP, 2, "healthy", "broken", "aiml", "portchannel")
	for _, s := range seeds[len(seeds)-2:] {
		seeds = append(seeds, `{"output":{"body":`+s+`}}`)
	}
	addSeeds(f, append(seeds, lldpCases(f)...)...)
	f.Fuzz(func(t *testing.T, s string) {
		got, gerr := ParseLLDP(s)
		want, werr := parseLLDPRef(s)
		if (gerr != nil) != (werr != nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("%q:\n got %v, %v\nwant %v, %v", s, got, gerr, want, werr)
		}
	})
}
