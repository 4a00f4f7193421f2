package inventory

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// Real topology files from containerlab's repository (testdata/imports/clab/corpus/README.md)
// import, or fail only because no node is of a kind roceaudit audits, naming each node, its
// kind and the label that would include it. Nodes of other kinds in a file that imports
// are left out with a warning saying the same.
func TestContainerlabCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/imports/clab/corpus/*.y*ml")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 20 {
		t.Fatalf("%d corpus files, want at least 20", len(files))
	}
	noEnv := func(string) (string, bool) { return "", false }
	imported := 0
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			nodes := corpusNodes(t, expandClabEnv(data, noEnv))
			inv, err := parseContainerlabWith(file, data, testPlatforms, testEnv(), noEnv, nil, Options{})
			if err != nil {
				if n := countErrors(err); n != 1 || !strings.Contains(err.Error(), "no node to audit: every node is left out (") ||
					!strings.Contains(err.Error(), "label a node "+clabPlatformLabel+": PLATFORM") {
					t.Fatalf("fails for a reason other than the kinds of its nodes (%d errors):\n%v", n, err)
				}
				for name, kind := range nodes {
					if !slices.Contains(clabInfra, kind) && !strings.Contains(err.Error(), fmt.Sprintf("%s (%s)", name, kind)) {
						t.Errorf("error does not name node %s of kind %s: %v", name, kind, err)
					}
				}
				return
			}
			imported++
			for name, kind := range nodes {
				_, isDev := inv.Device(name)
				warned := slices.ContainsFunc(inv.Warnings, func(w string) bool {
					return strings.Contains(w, fmt.Sprintf("node %q left out: kind %s", name, kind)) && strings.Contains(w, clabPlatformLabel+": PLATFORM")
				})
				if isDev == (warned || slices.Contains(clabInfra, kind)) {
					t.Errorf("node %s (kind %s): imported %v, warned %v", name, kind, isDev, warned)
				}
			}
		})
	}
	if imported < 30 {
		t.Errorf("%d corpus files import, want at least 30", imported)
	}
}

// corpusNodes is every node's name and kind as the file spells them (own kind, else its
// group's, else the defaults'), read independently of the importer.
func corpusNodes(t *testing.T, data []byte) map[string]string {
	var topo struct {
		Topology struct {
			Defaults struct{ Kind, Group string }
			Groups   map[string]struct{ Kind string }
			Nodes    map[string]*struct{ Kind, Group string }
		}
	}
	if err := yaml.Unmarshal(data, &topo); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for name, n := range topo.Topology.Nodes {
		kind := topo.Topology.Defaults.Kind
		if g := topo.Topology.Groups[topo.Topology.Defaults.Group].Kind; g != "" {
			kind = g
		}
		if n != nil && topo.Topology.Groups[n.Group].Kind != "" {
			kind = topo.Topology.Groups[n.Group].Kind
		}
		if n != nil && n.Kind != "" {
			kind = n.Kind
		}
		out[name] = strings.ToLower(kind)
	}
	return out
}

// Some files of the corpus exercise what containerlab resolves before it reads a node.
func TestContainerlabCorpusResolution(t *testing.T) {
	load := func(name string) *Inventory {
		t.Helper()
		file := filepath.Join("testdata/imports/clab/corpus", name)
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		inv, err := parseContainerlabWith(file, data, testPlatforms, testEnv(), func(string) (string, bool) { return "", false }, nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return inv
	}
	// frr01: PC1..PC3 take kind linux from their group.
	inv := load("lab-examples__frr01__frr01.clab.yml")
	for _, n := range []string{"PC1", "PC2", "PC3", "router1"} {
		if d, ok := inv.Device(n); !ok || d.Platform != "linux" {
			t.Errorf("frr01: %s = %+v, %v; want a linux host", n, d, ok)
		}
	}
	if len(inv.Links) != 6 {
		t.Errorf("frr01: %d links, want 6: %v", len(inv.Links), inv.Links)
	}
	// basic-groups: the kind comes from the default group.
	inv = load("tests__01-smoke__24-basic-groups.clab.yaml")
	if len(inv.Devices) != 3 {
		t.Errorf("basic-groups: %d devices, want 3", len(inv.Devices))
	}
}

// The corpus README lists every file of the directory, named after its source path, and
// its count of upstream files is the files here plus the ones it says are left out.
func TestContainerlabCorpusREADME(t *testing.T) {
	const dir = "testdata/imports/clab/corpus"
	readme := string(mustRead(t, filepath.Join(dir, "README.md")))
	rows := regexp.MustCompile("(?m)^\\| `([^`]+)` \\| `([^`]+)` \\|$").FindAllStringSubmatch(readme, -1)
	listed := map[string]bool{}
	for _, r := range rows {
		if want := strings.ReplaceAll(r[2], "/", "__"); r[1] != want {
			t.Errorf("README row %s: source %s would be named %s", r[1], r[2], want)
		}
		listed[r[1]] = true
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.y*ml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !listed[filepath.Base(f)] {
			t.Errorf("%s is not in the README", filepath.Base(f))
		}
		delete(listed, filepath.Base(f))
	}
	for f := range listed {
		t.Errorf("README lists %s, which is not in %s", f, dir)
	}
	counts := regexp.MustCompile(`holds (\d+) topology files .*; all (\d+) that are not Go templates are here`).FindStringSubmatch(readme)
	leftOut := regexp.MustCompile(`Left out: the (\w+) files there that are Go templates \(([^)]*)\)`).FindStringSubmatch(readme)
	if counts == nil || leftOut == nil {
		t.Fatalf("README does not say how many upstream files there are and which are left out")
	}
	paths := regexp.MustCompile("`[^`]+`").FindAllString(leftOut[2], -1)
	upstream, here := atoi(t, counts[1]), atoi(t, counts[2])
	if here != len(files) || len(rows) != len(files) || upstream != here+len(paths) {
		t.Errorf("README: %d upstream files, %d here, %d left out; the directory has %d files and the table %d rows",
			upstream, here, len(paths), len(files), len(rows))
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
