package archtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"sync"
)

// graph maps each project package (path relative to the module, "." for the root) to the
// project packages it imports (in its non-test files, or, in a test graph, in its _test.go
// files of either package).
type graph map[string][]string

// edge is one direct import, from -> to, both relative to the module.
type edge struct{ from, to string }

func (e edge) String() string { return e.from + " -> " + e.to }

// graphs are the module's import graphs: prod from non-test files, tests from _test.go files.
type graphs struct{ prod, tests graph }

// loadGraphs asks `go list` for every package of the module the test runs in; it runs once
// per test binary: every test reads the same module.
var loadGraphs = sync.OnceValues(func() (graphs, error) {
	mod, err := goList("-m")
	if err != nil {
		return graphs{}, err
	}
	modPath := strings.TrimSpace(string(mod))
	out, err := goList("-json", modPath+"/...")
	if err != nil {
		return graphs{}, err
	}
	gs := graphs{prod: graph{}, tests: graph{}}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath                         string
			Imports, TestImports, XTestImports []string
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return graphs{}, fmt.Errorf("decode go list output: %w", err)
		}
		from := relPath(modPath, p.ImportPath)
		gs.prod[from] = projectImports(modPath, p.Imports)
		gs.tests[from] = projectImports(modPath, append(p.TestImports, p.XTestImports...))
	}
	return gs, nil
})

// projectGraph is the graph of non-test imports.
func projectGraph() (graph, error) {
	gs, err := loadGraphs()
	return gs.prod, err
}

// projectImports keeps the project packages of imps, relative to the module.
func projectImports(modPath string, imps []string) []string {
	var out []string
	for _, imp := range imps {
		if rel := relPath(modPath, imp); rel != "" && !slices.Contains(out, rel) {
			out = append(out, rel)
		}
	}
	return out
}

// withTests is prod plus, for the packages at or below dir only, the imports of their tests:
// a test's code is compiled only for its own package, so the packages it imports contribute
// their non-test imports alone.
func withTests(prod, tests graph, dir string) graph {
	g := graph{}
	for pkg, imps := range prod {
		g[pkg] = imps
		if under(pkg, dir) {
			g[pkg] = append(slices.Clone(imps), tests[pkg]...)
		}
	}
	return g
}

func goList(args ...string) ([]byte, error) {
	cmd := exec.Command("go", append([]string{"list"}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s: %w: %s", strings.Join(args, " "), err, stderr.String())
	}
	return out, nil
}

// relPath is imp relative to the module, or "" when imp is not a project package.
func relPath(modPath, imp string) string {
	if imp == modPath {
		return "."
	}
	if rest, ok := strings.CutPrefix(imp, modPath+"/"); ok {
		return rest
	}
	return ""
}

// under reports whether pkg is dir or a package below it.
func under(pkg, dir string) bool { return pkg == dir || strings.HasPrefix(pkg, dir+"/") }

// chain returns the shortest import chain from pkg to a package that forbidden matches,
// ignoring the edges in skip, or nil when there is none. Chains are found breadth-first over
// sorted imports, so the same graph always gives the same message.
func (g graph) chain(pkg string, forbidden func(string) bool, skip map[edge]bool) []string {
	prev := map[string]string{pkg: ""}
	queue := []string{pkg}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		imports := slices.Sorted(slices.Values(g[cur]))
		for _, imp := range imports {
			if _, seen := prev[imp]; seen || skip[edge{cur, imp}] {
				continue
			}
			prev[imp] = cur
			if forbidden(imp) {
				var path []string
				for at := imp; at != ""; at = prev[at] {
					path = append(path, at)
				}
				slices.Reverse(path)
				return path
			}
			queue = append(queue, imp)
		}
	}
	return nil
}
