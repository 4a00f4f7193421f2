package reports

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/roceaudit/roceaudit/checks"
)

func TestJSONRoundTrip(t *testing.T) {
	in := sampleReport()
	out := render(t, "json", in, Options{})
	var back Report
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatalf("JSON report does not parse back into Report: %v", err)
	}
	want := normalized(in)
	// time.Time round-trips through RFC 3339 with the same instant but not the same pointer
	// to a Location; compare instants separately.
	if !back.Started.Equal(want.Started) || !back.Finished.Equal(want.Finished) {
		t.Errorf("times: got %v..%v, want %v..%v", back.Started, back.Finished, want.Started, want.Finished)
	}
	back.Started, back.Finished = want.Started, want.Finished
	if diff := cmp.Diff(want, back, cmpopts.IgnoreUnexported(Report{})); diff != "" {
		t.Errorf("round trip lost data (-want +got):\n%s", diff)
	}
	if !slices.IsSortedFunc(back.Results, compareResults) {
		t.Error("results are not in device, interface, check order")
	}
	if len(back.Results) != len(in.Results) {
		t.Errorf("%d results, want %d", len(back.Results), len(in.Results))
	}
}

// TestJSONKeys checks the contract from a script's point of view: raw keys, no nulls.
func TestJSONKeys(t *testing.T) {
	for name, r := range map[string]*Report{
		"sample": sampleReport(),
		// A report with nothing in it, Summary unset, no schema: keys must still be there.
		"empty": {},
	} {
		t.Run(name, func(t *testing.T) {
			var doc map[string]any
			if err := json.Unmarshal(render(t, "json", r, Options{}), &doc); err != nil {
				t.Fatal(err)
			}
			if doc["schema"] != Schema {
				t.Errorf("schema = %v, want %s", doc["schema"], Schema)
			}
			for _, key := range []string{"devices", "paths", "transfers", "results"} {
				if _, ok := doc[key].([]any); !ok {
					t.Errorf("%s = %#v, want an array", key, doc[key])
				}
			}
			summary, ok := doc["summary"].(map[string]any)
			if !ok {
				t.Fatalf("summary = %#v, want an object", doc["summary"])
			}
			counts := Summarize(r.Results)
			for _, s := range reportStatuses(r) {
				if n, ok := summary[string(s)].(float64); !ok || int(n) != counts[s] {
					t.Errorf("summary[%s] = %v, want %d", s, summary[string(s)], counts[s])
				}
			}
			if _, ok := summary[string(checks.Waived)]; ok != (r.Waivers != nil) {
				t.Errorf("summary has waived: %v, waiver file in use: %v", ok, r.Waivers != nil)
			}
		})
	}
}

// TestJSONSummaryFromResults: a stale Summary in the Report must not reach the output.
func TestJSONSummaryFromResults(t *testing.T) {
	r := sampleReport()
	r.Summary = map[checks.Status]int{checks.Pass: 999}
	var back Report
	if err := json.Unmarshal(render(t, "json", r, Options{}), &back); err != nil {
		t.Fatal(err)
	}
	if back.Summary[checks.Pass] != 23 || back.Summary[checks.Fail] != 4 {
		t.Errorf("summary = %v, want counts from the results (23 pass, 4 fail)", back.Summary)
	}
}

// The streamed report is byte for byte what encoding the whole report at once gives, with
// or without results and ports.
func TestJSONStreamedAsEncodedWhole(t *testing.T) {
	full := sampleReport()
	noPorts := sampleReport()
	noPorts.Ports = nil
	empty := sampleReport()
	empty.Results, empty.Ports = nil, nil
	for name, r := range map[string]*Report{"full": full, "no ports": noPorts, "empty": empty} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(normalized(r)); err != nil {
			t.Fatal(err)
		}
		got := render(t, "json", r, Options{})
		if diff := cmp.Diff(want.String(), string(got)); diff != "" {
			t.Errorf("%s: streamed report differs (-whole +streamed):\n%s", name, diff)
		}
	}
	if len(full.Ports) == 0 || len(full.Results) == 0 {
		t.Fatal("the sample report lost its results or ports: the test proves nothing")
	}
}

// TestJSONCoverageArrays: a member on one leaf crosses no switch-to-switch port, and a pair
// with no attempt has no flow labels; both are [] for scripts, never null, and the report
// itself is left as it was.
func TestJSONCoverageArrays(t *testing.T) {
	r := sampleReport()
	r.Transfers[0].Coverage = &Coverage{Members: []CoverageMember{
		{Path: 1, Via: "leaf1", Carried: true},
		{Path: 2, Via: "leaf1>spine1>leaf2", Ports: []string{"leaf1:Ethernet8"}},
	}}
	out := render(t, "json", r, Options{})
	var doc struct {
		Transfers []struct {
			Coverage *struct {
				Attempts json.RawMessage `json:"attempt_flow_labels"`
				Members  []struct {
					Ports json.RawMessage `json:"ports"`
				} `json:"members"`
			} `json:"coverage"`
		} `json:"transfers"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	c := doc.Transfers[0].Coverage
	if c == nil || len(c.Members) != 2 {
		t.Fatalf("coverage = %+v", c)
	}
	if got := string(c.Members[0].Ports); got != "[]" {
		t.Errorf("ports of a one-leaf member = %s, want []", got)
	}
	var ports []string
	if err := json.Unmarshal(c.Members[1].Ports, &ports); err != nil || !slices.Equal(ports, []string{"leaf1:Ethernet8"}) {
		t.Errorf("ports = %s (%v)", c.Members[1].Ports, err)
	}
	if got := string(c.Attempts); got != "[]" {
		t.Errorf("attempt_flow_labels = %s, want []", got)
	}
	if r.Transfers[0].Coverage.Members[0].Ports != nil || r.Transfers[0].Coverage.Attempts != nil {
		t.Error("rendering JSON modified the report's coverage")
	}
}
