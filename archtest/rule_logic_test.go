package archtest

import (
	"slices"
	"testing"
)

// The rule logic on a made-up graph: chains through allowed packages are found, known edges
// are looked past, and a known edge that is gone is reported.
func TestRuleViolations(t *testing.T) {
	g := graph{
		"lab":          {"lab/dev"},
		"lab/dev":      {"topology", "lab/util"},
		"lab/util":     {"collectors/x"},
		"topology":     {"recipe"},
		"recipe":       nil,
		"collectors/x": {"topology"},
	}
	r := rule{from: "lab", forbidden: []string{"collectors", "checks"}}
	want := []string{
		"imports lab -> lab/dev -> lab/util -> collectors/x",
		"imports lab/dev -> lab/util -> collectors/x",
		"imports lab/util -> collectors/x",
	}
	if got := r.violations(g); !slices.Equal(got, want) {
		t.Errorf("violations = %q, want %q", got, want)
	}

	r.known = []edge{{"lab/util", "collectors/x"}}
	if got := r.violations(g); len(got) != 0 {
		t.Errorf("with the edge known: %q, want none", got)
	}

	r.known = []edge{{"lab/util", "collectors/x"}, {"lab/dev", "collectors/x"}, {"topology", "recipe"}}
	want = []string{
		"known violation lab/dev -> collectors/x no longer exists: delete it from the list",
		"listed violation topology -> recipe does not break this rule: delete it from the list",
	}
	if got := r.violations(g); !slices.Equal(got, want) {
		t.Errorf("stale known edges: %q, want %q", got, want)
	}

	star := rule{from: "recipe", forbidden: []string{"*"}}
	g["recipe"] = []string{"topology"}
	if got := star.violations(g); !slices.Equal(got, []string{"imports recipe -> topology"}) {
		t.Errorf(`"*" rule: %q`, got)
	}
}

// withTests adds the test imports of the rule's own packages only: a lab test importing the
// collectors breaks the lab rule, a topology test importing them does not reach the lab.
func TestWithTestsAddsOnlyTheRulesOwnTests(t *testing.T) {
	prod := graph{"lab": {"topology"}, "topology": nil, "collectors/x": nil}
	tests := graph{"lab": {"collectors/x"}, "topology": {"collectors/x"}}
	r := rule{from: "lab", forbidden: []string{"collectors"}}
	if got := r.violations(prod); len(got) != 0 {
		t.Errorf("non-test graph: %q", got)
	}
	if got := r.violations(withTests(prod, tests, "lab")); !slices.Equal(got, []string{"imports lab -> collectors/x"}) {
		t.Errorf("with the lab's tests: %q", got)
	}
	delete(tests, "lab")
	if got := r.violations(withTests(prod, tests, "lab")); len(got) != 0 {
		t.Errorf("a topology test must not count against the lab: %q", got)
	}
}
