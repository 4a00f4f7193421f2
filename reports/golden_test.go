package reports

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

var update = flag.Bool("update", false, "rewrite fixtures/golden/report.* from the renderers")

// goldenDir holds one file per format; review a diff of it like code.
const goldenDir = "../fixtures/golden"

func TestGolden(t *testing.T) {
	for _, f := range formats {
		format := f.name
		t.Run(format, func(t *testing.T) {
			got := render(t, format, sampleReport(), Options{})
			golden(t, filepath.Join(goldenDir, "report."+f.ext), got, "TestGolden")
		})
	}
}

// golden compares got with the file at path, or rewrites it under -update; test names the
// test that rewrites it.
func golden(t *testing.T, path string, got []byte, test string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./reports -run %s -update to create it)", err, test)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-want +got); rerun with -update if the change is intended:\n%s", path, diff)
	}
}

// TestGoldenFilesMatchFormats finds golden files left behind by a removed or renamed format.
func TestGoldenFilesMatchFormats(t *testing.T) {
	known := map[string]bool{}
	for _, f := range formats {
		name := "report." + f.ext
		if known[name] {
			t.Errorf("two formats share the extension %q", f.ext)
		}
		known[name] = true
	}
	files, err := filepath.Glob(filepath.Join(goldenDir, "report.*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range files {
		if !known[filepath.Base(path)] {
			t.Errorf("%s belongs to no report format", path)
		}
	}
}

// TestDeterministic renders twice from reports whose results arrive in different orders.
func TestDeterministic(t *testing.T) {
	for _, format := range Formats() {
		a := sampleReport()
		b := sampleReport()
		for i, j := 0, len(b.Results)-1; i < j; i, j = i+1, j-1 {
			b.Results[i], b.Results[j] = b.Results[j], b.Results[i]
		}
		if diff := cmp.Diff(string(render(t, format, a, Options{})), string(render(t, format, b, Options{}))); diff != "" {
			t.Errorf("%s depends on result order:\n%s", format, diff)
		}
	}
}

// TestRenderDoesNotModify guards the Report shared by several --report outputs in one run.
func TestRenderDoesNotModify(t *testing.T) {
	for _, format := range Formats() {
		r := sampleReport()
		r.Summary = nil
		before := *sampleReport()
		before.Summary = nil
		render(t, format, r, Options{Verbose: true, Color: true})
		if diff := cmp.Diff(before, *r, cmpopts.IgnoreUnexported(Report{})); diff != "" { // the scan FromSnapshot kept is derived
			t.Errorf("%s modified the report:\n%s", format, diff)
		}
	}
}

func render(t *testing.T, format string, r *Report, opts Options) []byte {
	t.Helper()
	rd, err := Lookup(format)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := rd.Render(&buf, r, opts); err != nil {
		t.Fatalf("render %s: %v", format, err)
	}
	return buf.Bytes()
}

// Every golden file carries the causes, each in its own format's words.
func TestGoldenHasCauses(t *testing.T) {
	first := reportCauses(sampleReport())[0].Headline()
	for _, f := range formats {
		got := string(render(t, f.name, sampleReport(), Options{}))
		var want string
		switch f.name {
		case "json":
			want = `"causes": [`
		case "prometheus":
			want = "roceaudit_cause_results{"
		case "markdown":
			want = "## Causes"
		case "html":
			want = `<h2 id="causes">Causes</h2>`
		case "junit":
			want = `<property name="cause" value="` + strings.ReplaceAll(first, ">", "&gt;") + `">`
		default:
			want = "6 causes explain 7 problems\n   1. " + first
		}
		if !strings.Contains(got, want) {
			t.Errorf("%s lacks its causes section %q", f.name, want)
		}
	}
}
