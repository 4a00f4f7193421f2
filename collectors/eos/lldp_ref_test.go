package eos

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/collectors/internal/fuzzseed"
	"github.com/roceaudit/roceaudit/topology"
)

// parseLLDPRef is ParseLLDP before the scan (encoding/json alone), kept as the reference the
// new one must agree with.
func parseLLDPRef(out string) ([]topology.LLDPNeighbor, error) {
	if err := descriptor.Refused(out); err != nil {
		return nil, err
	}
	res, err := decodeLLDP(out)
	if err != nil {
		return nil, err
	}
	sort.SliceStable(res, func(a, b int) bool { return res[a].LocalPort < res[b].LocalPort })
	return res, nil
}

func lldpCases(t testing.TB) []string {
	var cases []string
	for _, s := range []string{"healthy", "broken", "portchannel"} {
		if b, err := readSeed(s, CmdLLDP); err == nil {
			cases = append(cases, b, b+" ", b+"x")
		}
	}
	if len(cases) == 0 {
		t.Fatal("no recorded reply")
	}
	nb := func(id string) string {
		return `{"systemName":"s","chassisId":"c","neighborInterfaceInfo":{"interfaceId":` + id + `,"interfaceDescription":"d"},"managementAddresses":[{"address":"10.0.0.1"},{"address":"x"}]}`
	}
	for _, id := range []string{`"Ethernet1"`, `"\"Ethernet1\""`, `"\\"`, `"a\"b\\\"c"`, `"\u0041"`, `"\n"`, `null`, `5`, "\"\xff\"", `"é"`} {
		cases = append(cases, `{"lldpNeighbors":{"Ethernet2":{"lldpNeighborInfo":[`+nb(id)+`,`+nb(`"x"`)+`]},"Ethernet1":{"lldpNeighborInfo":[`+nb(id)+`]}}}`)
	}
	return append(cases, "", "{}", "null", "[]", `{"lldpNeighbors":null}`, `{"lldpNeighbors":{}}`, `{"LLDPneighbors":{}}`,
		`{"lldpNeighbors":{"Ethernet1":{}}}`, `{"lldpNeighbors":{"Ethernet1":{"lldpNeighborInfo":null}}}`,
		`{"lldpNeighbors":{"Ethernet1":{"lldpNeighborInfo":[]}}}`, `{"lldpNeighbors":{"Ethernet1":{"lldpNeighborInfo":[{}]}}}`,
		`{"lldpNeighbors":{"Ethernet1":{"lldpNeighborInfo":[null]}}}`,
		`{"lldpNeighbors":{"Ethernet1":{"lldpNeighborInfo":[{"neighborInterfaceInfo":{}}]},"Ethernet1":{"lldpNeighborInfo":[]}}}`,
		`{"lldpNeighbors":{"Ethernet1":{"lldpNeighborInfo":[{"neighborInterfaceInfo":{},"managementAddresses":null}]}}}`,
		`{"lldpNeighbors":{"Ethernet1":{"lldpNeighborInfo":[{"neighborInterfaceInfo":{},"managementAddresses":[null]}]}}}`,
		`{"lldpNeighbors":{"Ethernet1":{"lldpNeighborInfo":[{"neighborInterfaceInfo":{},"SystemName":"x"}]}}}`,
		`{"lldpNeighbors":{"Ethernet1":{"lldpNeighborInfo":[{"neighborInterfaceInfo":{},"systemName":"x","systemName":"y"}]}}}`,
		`{"lldpNeighbors":{"Eth\u00651":{"lldpNeighborInfo":[{"neighborInterfaceInfo":{}}]}}}`)
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

// The scan reads the recorded replies itself: were it to decline them, it would silently
// never run.
func TestLLDPScanReadsFixtures(t *testing.T) {
	for _, s := range []string{"healthy", "portchannel"} {
		b, err := readSeed(s, CmdLLDP)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := scanLLDP(b); !ok {
			t.Errorf("%s: the scan declines the recorded reply", s)
		}
		quoted := strings.Replace(b, `"interfaceId": "`, `"interfaceId": "\"Ethernet7\"`, 1)
		if got, ok := scanLLDP(quoted); !ok || !strings.Contains(fmt.Sprint(got), "Ethernet7") {
			t.Errorf("%s: the scan declines a quoted port ID", s)
		}
	}
}

func FuzzLLDPAgreesWithReference(f *testing.F) {
	addSeeds(f, append(fuzzseed.Minis(f, readSeed, CmdLLDP, 2, "healthy", "broken", "portchannel"), lldpCases(f)...)...)
	f.Fuzz(func(t *testing.T, s string) {
		got, gerr := ParseLLDP(s)
		want, werr := parseLLDPRef(s)
		if (gerr != nil) != (werr != nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("%q:\n got %v, %v\nwant %v, %v", s, got, gerr, want, werr)
		}
	})
}
