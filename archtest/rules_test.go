package archtest

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// rule forbids the packages at or below from to import, directly or through other project
// packages, any package at or below one of forbidden ("*" forbids every other project package).
type rule struct {
	from      string
	forbidden []string
	why       string
	// known are today's direct imports that break the rule: the rule looks past them (and
	// whatever they pull in) but fails once one of them is gone, so the list can only shrink.
	known []edge
	// tests extends the rule to the _test.go files of the packages at or below from.
	tests bool
}

var rules = []rule{
	{
		from:      "lab",
		forbidden: []string{"collectors", "checks", "inventory", "reports"},
		why:       "the lab emulates devices and must know nothing of the auditor (its tests neither: labcheck runs the auditor against it)",
		tests:     true,
	},
	{
		from:      "checks",
		forbidden: []string{"collectors", "reports"},
		why:       "checks read only the snapshot; platform remediations reach them through Options.Remedy",
	},
	{
		from:      "reports",
		forbidden: []string{"collectors"},
		why:       "reports render results; they never talk to devices",
	},
	{
		from:      "topology",
		forbidden: []string{"checks", "collectors", "reports", "inventory"},
		why:       "the fabric model is what collectors produce and checks read; it depends on neither",
	},
	{
		from:      "recipe",
		forbidden: []string{"*"},
		why:       "the recipe is plain values that topology, inventory and checks all share",
	},
	{
		from:      "inventory",
		forbidden: []string{"collectors", "checks", "reports"},
		why:       "the inventory is read before anything is collected, checked or reported",
	},
}

func (r rule) forbids(pkg string) bool {
	if under(pkg, r.from) {
		return false
	}
	return slices.ContainsFunc(r.forbidden, func(dir string) bool { return dir == "*" || under(pkg, dir) })
}

// violations lists, per offending package of g, the import chain that breaks r, then every
// known edge that is gone or does not break r (the list must only shrink, and say only truth).
func (r rule) violations(g graph) []string {
	skip := map[edge]bool{}
	var stale []string
	for _, e := range r.known {
		skip[e] = true
		switch {
		case !under(e.from, r.from) || !r.forbids(e.to):
			stale = append(stale, "listed violation "+e.String()+" does not break this rule: delete it from the list")
		case !slices.Contains(g[e.from], e.to):
			stale = append(stale, "known violation "+e.String()+" no longer exists: delete it from the list")
		}
	}
	var out []string
	for _, pkg := range slices.Sorted(maps.Keys(g)) {
		if !under(pkg, r.from) {
			continue
		}
		if c := g.chain(pkg, r.forbids, skip); c != nil {
			out = append(out, "imports "+strings.Join(c, " -> "))
		}
	}
	return append(out, stale...)
}

func TestDependencyDirection(t *testing.T) {
	gs, err := loadGraphs()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rules {
		t.Run(r.from, func(t *testing.T) {
			g := gs.prod
			if r.tests {
				g = withTests(gs.prod, gs.tests, r.from)
			}
			if _, ok := g[r.from]; !ok {
				t.Fatalf("no package %s in the module: the rule guards nothing", r.from)
			}
			for _, v := range r.violations(g) {
				t.Errorf("%s (%s): %s", r.from, r.why, v)
			}
		})
	}
}

// testHelpers are packages for tests only (they import "testing"): no production package may
// import them.
var testHelpers = []string{"collectors/internal/fixturerunner", "lab/labtest", "labcheck", "labcheck/leafbench", "internal/opensshd", "internal/golden", "internal/benchcpu", "internal/leafreplay", "collectors/internal/fuzzseed"}

func TestTestHelpersStayInTests(t *testing.T) {
	g, err := projectGraph()
	if err != nil {
		t.Fatal(err)
	}
	for _, helper := range testHelpers {
		if _, ok := g[helper]; !ok {
			t.Errorf("no package %s in the module: remove it from testHelpers", helper)
		}
		for _, pkg := range slices.Sorted(maps.Keys(g)) {
			// Test helpers may build on each other; production code may use none of them.
			if slices.Contains(g[pkg], helper) && !slices.Contains(testHelpers, pkg) {
				t.Errorf("%s imports the test helper %s outside its tests", pkg, helper)
			}
		}
	}
}
