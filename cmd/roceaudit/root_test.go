package main

import (
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/reports"
)

func TestVersionFlagMatchesVersionCommand(t *testing.T) {
	code, cmdOut, errs := run(t, "version")
	if code != exitOK || !strings.HasPrefix(cmdOut, "roceaudit ") || strings.Count(cmdOut, "\n") != 1 {
		t.Fatalf("version: exit %d, stdout %q, stderr %q", code, cmdOut, errs)
	}
	code, flagOut, errs := run(t, "--version")
	if code != exitOK || flagOut != cmdOut {
		t.Errorf("--version: exit %d, stdout %q, stderr %q; want %q", code, flagOut, errs, cmdOut)
	}
	// -v is --verbose, not --version: alone it is not a version request.
	if _, out, _ := run(t, "-v"); out == cmdOut {
		t.Error("-v printed the version")
	}
}

// The format flags' help comes from the reports package's one list of formats.
func TestFormatHelpListsEveryFormat(t *testing.T) {
	code, out, errs := run(t, "audit", "--help")
	if code != exitOK {
		t.Fatalf("audit --help: exit %d %s", code, errs)
	}
	for _, flag := range []string{"--format", "--report"} {
		line := helpLine(out, flag)
		if !strings.Contains(line, strings.Join(reports.Formats(), "|")) {
			t.Errorf("%s help %q does not list the formats %v", flag, line, reports.Formats())
		}
	}
}

// Every command that reads an inventory has -i with the same help.
func TestInventoryFlagIsShared(t *testing.T) {
	var want string
	for _, cmd := range []string{"audit", "collect", "path", "transfer", "gids", "plan", "validate"} {
		code, out, errs := run(t, cmd, "--help")
		if code != exitOK {
			t.Fatalf("%s --help: exit %d %s", cmd, code, errs)
		}
		line := strings.Join(strings.Fields(helpLine(out, "-i, --inventory")), " ") // column padding varies
		if line == "" {
			t.Errorf("%s has no -i/--inventory", cmd)
			continue
		}
		if want == "" {
			want = line
		} else if line != want {
			t.Errorf("%s: -i help %q, want %q", cmd, line, want)
		}
	}
	if strings.Contains(want, "CONTRACT") {
		t.Errorf("-i help cites a developer document: %q", want)
	}
}

// helpLine returns the line of cobra help that documents flag, or "".
func helpLine(help, flag string) string {
	for _, line := range strings.Split(help, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), flag+" ") {
			return line
		}
	}
	return ""
}
