package main

import (
	"io"
	"os"
	"sync"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// wantColor: text on a terminal, unless --no-color or NO_COLOR (no-color.org).
func (a *app) wantColor() bool {
	if a.noColor || os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
		return false
	}
	return isTerminal(a.stdout)
}

// textWidth folds the text report at the terminal's width; 0 (a finding a line, for grep
// and diffs) when stdout is a pipe or a file.
func (a *app) textWidth() int {
	f, ok := a.stdout.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return 0
	}
	w, _, err := term.GetSize(int(f.Fd()))
	if err != nil {
		return 0
	}
	return w
}

// progress draws a bar on stderr when stderr is a terminal and there are more than a few
// devices; otherwise it does nothing, so logs and CI output stay clean.
type progress struct {
	mu  sync.Mutex
	bar *progressbar.ProgressBar
}

const progressMinDevices = 5

func newProgress(stderr io.Writer, total int, quiet bool) *progress {
	p := &progress{}
	if quiet || total < progressMinDevices || !isTerminal(stderr) {
		return p
	}
	p.bar = progressbar.NewOptions(total,
		progressbar.OptionSetWriter(stderr),
		progressbar.OptionSetDescription("collecting"),
		progressbar.OptionShowCount(),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetPredictTime(false),
	)
	return p
}

func (p *progress) step(_, _ int, device string) {
	if p.bar == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.bar.Describe("collected " + device)
	_ = p.bar.Add(1)
}

func (p *progress) finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}
