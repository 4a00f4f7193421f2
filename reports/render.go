package reports

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/roceaudit/roceaudit/checks"
)

// Options tune how a report is rendered; machine formats ignore what does not apply to them.
type Options struct {
	// Color adds ANSI colours to the text format. Off means no escape byte at all.
	Color bool
	// Verbose lists passing checks one by one instead of one line per interface.
	Verbose bool
	// Width folds the text report's long lines (findings, causes, paths, transfers) at this
	// many columns, each continuation indented under the column it continues. 0 never folds:
	// in a file, a pipe or a CI log each finding stays one line, whole for grep and diff, and
	// the viewer wraps it if it must; the command line sets it to a terminal's width only.
	Width int
	// FailOn is the --fail-on threshold, so a format that passes or fails results (JUnit)
	// agrees with the exit code. The zero value (or any unknown severity) is the default, error.
	FailOn checks.Severity
}

// failOn is the threshold opts stands for.
func (o Options) failOn() checks.Severity {
	if s, ok := checks.ParseSeverity(string(o.FailOn)); ok {
		return s
	}
	return checks.SevError
}

// failsRun is whether res makes the exit code 1 under threshold: checks.Judge on it alone,
// so no renderer can draw the line elsewhere than the exit code does.
func failsRun(res checks.Result, threshold checks.Severity) bool {
	return checks.Judge([]checks.Result{res}, threshold).Failed
}

// Renderer writes one report format. Renderers print only what is in the Report (never
// anything read from elsewhere) and never modify it.
type Renderer interface {
	Render(w io.Writer, r *Report, opts Options) error
}

// format is one report format: its command-line name, the renderer and the extension its
// files conventionally have (the golden files use it). formats is the one list every other place derives from.
type format struct {
	name     string
	ext      string
	renderer Renderer
}

// formats is in help order; text, the default, first.
var formats = []format{
	{"text", "txt", textRenderer{}},
	{"json", "json", jsonRenderer{}},
	{"junit", "junit.xml", junitRenderer{}},
	{"html", "html", htmlRenderer{}},
	{"markdown", "md", markdownRenderer{}},
	{"prometheus", "prom", prometheusRenderer{}},
}

// Formats lists the names --format and --report FMT=FILE accept, in help order.
func Formats() []string {
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = f.name
	}
	return names
}

// FormatsHelp is the format list as flag help shows it: "text|json|...".
func FormatsHelp() string { return strings.Join(Formats(), "|") }

// Lookup returns the renderer of a format named as on the command line (case-insensitive).
func Lookup(name string) (Renderer, error) {
	f, err := lookupFormat(name)
	if err != nil {
		return nil, err
	}
	return f.renderer, nil
}

func lookupFormat(name string) (format, error) {
	want := strings.ToLower(strings.TrimSpace(name))
	for _, f := range formats {
		if f.name == want {
			return f, nil
		}
	}
	return format{}, fmt.Errorf("unknown report format %q (known formats: %s)", name, strings.Join(Formats(), ", "))
}

// errNilReport is what every renderer returns for a nil report rather than panicking.
var errNilReport = errors.New("render report: no report (nil)")
