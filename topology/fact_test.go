package topology

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var src = Evidence{Command: "show running-config", Excerpt: "interface Ethernet1"}

// Each status survives a snapshot's trip through JSON, and the JSON names it.
func TestFactJSONRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		fact Fact[map[int]int]
		json string
	}{
		{Known(map[int]int{26: 3}, src),
			`{"value":{"26":3},"status":"known","source":{"command":"show running-config","excerpt":"interface Ethernet1"}}`},
		{Unknown[map[int]int](Evidence{Command: "show qos", Error: "exit 1"}),
			`{"value":null,"status":"unknown","source":{"command":"show qos","error":"exit 1"}}`},
		{Unsupported(map[int]int{}, "no such knob", Evidence{Command: "show qos"}),
			`{"value":{},"status":"unsupported","reason":"no such knob","source":{"command":"show qos"}}`},
		{Inferred(map[int]int{26: 3}, "EOS default DSCP map", src),
			`{"value":{"26":3},"status":"inferred","reason":"EOS default DSCP map","source":{"command":"show running-config","excerpt":"interface Ethernet1"}}`},
	} {
		b, err := json.Marshal(tc.fact)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tc.json {
			t.Errorf("%s marshals to\n%s, want\n%s", tc.fact.Status, b, tc.json)
		}
		var back Fact[map[int]int]
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if d := cmp.Diff(tc.fact, back); d != "" {
			t.Errorf("%s round trip (-want +got):\n%s", tc.fact.Status, d)
		}
	}
}

// A snapshot written before facts had a status says "known": it still reads, in the
// line-oriented layout and in any other (an indented file), whatever the fact's type.
func TestFactJSONLegacyKnown(t *testing.T) {
	for in, want := range map[string]FactStatus{
		`{"value":{"configured":9216},"known":true,"source":{"command":"show interfaces"}}`: FactKnown,
		`{"value":{"configured":0},"known":false,"source":{"error":"exit 1"}}`:              FactUnknown,
		`{"value":{"configured":0},"known" : true,"status":"inferred","reason":"default"}`:  FactInferred,
		`{"value":{"configured":9216},"known":true,"status":null}`:                          FactKnown,
		`{"value":{"configured":9216},"status":"known"}`:                                    FactKnown,
	} {
		dev := `{"name":"leaf1","platform":"sonic","role":"switch","reachable":true,"switch":{"ports":[{"name":"Ethernet0","mtu":` + in + `,` +
			`"counters":{"value":{"rx_known":18446744073709551},"known":true}}]}}`
		for layout, file := range map[string]string{
			"lines":    `{"schema":"roceaudit/snapshot/v1","devices":[` + "\n" + dev + "\n" + `]}` + "\n",
			"indented": "{\n  \"schema\": \"roceaudit/snapshot/v1\",\n  \"devices\": [\n    " + dev + "\n  ]\n}\n",
		} {
			s, err := ReadSnapshot(strings.NewReader(file), ReadOptions{})
			if err != nil {
				t.Fatalf("%s %s: %v", layout, in, err)
			}
			p := s.Devices[0].Switch.Ports[0]
			if p.MTU.Status != want {
				t.Errorf("%s: %s reads as %s, want %s", layout, in, p.MTU.Status, want)
			}
			if p.Counters.Status != FactKnown || p.Counters.Value["rx_known"] != 18446744073709551 {
				t.Errorf("%s: counters %+v, want known and the number digit for digit", layout, p.Counters)
			}
			// As check reads it (switch-port counters skipped, not decoded).
			s, err = ReadSnapshot(strings.NewReader(file), ReadOptions{CheckedCounters: true})
			if err != nil {
				t.Fatalf("%s %s, checked counters: %v", layout, in, err)
			}
			if p := s.Devices[0].Switch.Ports[0]; p.MTU.Status != want || p.MTU.Value.Configured != 9216 && want == FactKnown {
				t.Errorf("%s, checked counters: %s reads as %+v, want %s", layout, in, p.MTU, want)
			}
		}
	}
}

// Only a "known" key sends a device through the rewrite; the status value "known" does not.
func TestHasKnownKey(t *testing.T) {
	for in, want := range map[string]bool{
		`{"status":"known","source":{}}`:         false,
		`{"excerpt":"say \\"known\\": yes"}`:     false,
		`{"known":true}`:                         true,
		`{"known"` + " \n\t:false}":              true,
		`{"unknown":1}`:                          false,
		`["known"]`:                              false,
		`{"a":"known","known":true,"b":"known"}`: true,
	} {
		if got := hasKnownKey([]byte(in)); got != want {
			t.Errorf("hasKnownKey(%s) = %v, want %v", in, got, want)
		}
	}
}

func TestFactJSONBadStatus(t *testing.T) {
	var f Fact[int]
	err := json.Unmarshal([]byte(`{"value":1,"status":"maybe"}`), &f)
	if err == nil || !strings.Contains(err.Error(), `"maybe"`) {
		t.Fatalf("err = %v, want one naming the status", err)
	}
	if _, err := json.Marshal(Fact[int]{Status: FactStatus(9)}); err == nil {
		t.Error("an out-of-range status marshalled")
	}
}

func TestFactStatusPredicates(t *testing.T) {
	for _, tc := range []struct {
		fact             Fact[int]
		usable, hasValue bool
	}{
		{Fact[int]{}, false, false}, // no collector filled it in
		{Known(1, src), true, true},
		{Unknown[int](src), false, false},
		{Unsupported(0, "r", src), false, true},
		{Inferred(1, "r", src), true, true},
	} {
		if tc.fact.Usable() != tc.usable || tc.fact.HasValue() != tc.hasValue {
			t.Errorf("%s: usable %v has value %v, want %v %v", tc.fact.Status, tc.fact.Usable(), tc.fact.HasValue(), tc.usable, tc.hasValue)
		}
	}
	if f := InferredIf(1, "", src); f.Status != FactKnown {
		t.Errorf("InferredIf without a reason = %s", f.Status)
	}
	if f := InferredIf(1, "default", src); f.Status != FactInferred || f.Reason != "default" {
		t.Errorf("InferredIf with a reason = %+v", f)
	}
}

// Evidence puts the reason before what was read, and leaves a plain fact's source alone.
func TestFactEvidence(t *testing.T) {
	if got := Inferred(1, "EOS default", src).Evidence(); got != (Evidence{Command: src.Command, Excerpt: "EOS default\ninterface Ethernet1"}) {
		t.Errorf("inferred evidence %+v", got)
	}
	if got := Unsupported(0, "no knob", Evidence{Command: "c"}).Evidence(); got != (Evidence{Command: "c", Excerpt: "no knob"}) {
		t.Errorf("unsupported evidence %+v", got)
	}
	if got := Known(1, src).Evidence(); got != src {
		t.Errorf("known evidence %+v", got)
	}
}
