package labtest

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/lab/sshd"
)

// goldenName is what a golden file is named after: cmd with every run of characters other than
// letters, digits and '-' turned into '_' ("show interfaces | json" -> show_interfaces_json.txt),
// the rule fixtures/README.md gives device outputs.
var goldenName = regexp.MustCompile(`[^A-Za-z0-9-]+`)

// GoldenFile is the golden file of cmd's answer.
func GoldenFile(cmd string) string {
	return strings.Trim(goldenName.ReplaceAllString(cmd, "_"), "_") + ".txt"
}

// GoldenAnswers checks dev's answer to each of cmds, which must succeed, against the golden
// file dir/GoldenFile(cmd), or with update (the test's -update flag) rewrites the files.
func GoldenAnswers(t testing.TB, dev sshd.Device, cmds []string, dir string, update bool) {
	t.Helper()
	for _, cmd := range cmds {
		out, stderr, exit := dev.Exec(context.Background(), cmd)
		if exit != 0 || stderr != "" {
			t.Fatalf("%q: exit %d, stderr %q", cmd, exit, stderr)
		}
		golden(t, cmd, filepath.Join(dir, GoldenFile(cmd)), out, update)
	}
}

// golden checks that got, the answer to cmd, is the content of the golden file at path, or
// with update rewrites the file with it.
func golden(t testing.TB, cmd, path, got string, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%q differs from %s:\n%s", cmd, path, FirstDiff(got, string(want)))
	}
}

// FirstDiff shows the first differing line.
func FirstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return "line " + strconv.Itoa(i+1) + ":\n got  " + gl + "\n want " + wl
		}
	}
	return "(no line differs)"
}
