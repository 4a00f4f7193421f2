package reports

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// Options tune how a report is rendered; machine formats ignore what does not apply to them.
type Options struct {
	// Color adds ANSI colours to the text format. Off means no escape byte at all.
	Color bool
	// Verbose lists passing checks one by one instead of one line per interface.
	Verbose bool
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
