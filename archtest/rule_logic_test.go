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
