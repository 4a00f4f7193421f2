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

// Formats lists the report formats of CONTRACT §2 (--format, --report FMT=FILE), in help order.
func Formats() []string {
	return []string{"text", "json", "junit", "html", "markdown", "prometheus"}
}

// Lookup returns the renderer of a format named as on the command line (case-insensitive).
func Lookup(format string) (Renderer, error) {
	switch strings.ToLower(strings.TrimSpace(format)) {
	case "text":
		return textRenderer{}, nil
	case "json":
		return jsonRenderer{}, nil
	case "junit":
		return junitRenderer{}, nil
	case "html":
		return htmlRenderer{}, nil
	case "markdown":
		return markdownRenderer{}, nil
	case "prometheus":
		return prometheusRenderer{}, nil
	}
	return nil, fmt.Errorf("unknown report format %q (known formats: %s)", format, strings.Join(Formats(), ", "))
}

// errNilReport is what every renderer returns for a nil report rather than panicking.
var errNilReport = errors.New("render report: no report (nil)")
