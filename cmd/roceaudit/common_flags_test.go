package main

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/roceaudit/roceaudit/collectors/platforms"
)

// usageFlagName is the long name on a line of pflag's usage ("  -v, --verbose   ...").
var usageFlagName = regexp.MustCompile(`^\s+(?:-\w, )?--([\w-]+)`)

// The list the refusal walks is the root's persistent flags, and every runnable command says
// which of them it honours.
func TestEveryCommandListsTheCommonFlagsItHonours(t *testing.T) {
	root := newRootCmd(platforms.Registry(), strings.NewReader(""), io.Discard, io.Discard)
	var persistent []string
	for _, name := range everyCommonFlag {
		if root.PersistentFlags().Lookup(name) == nil {
			t.Errorf("--%s is listed but is no persistent flag", name)
		}
	}
	for _, line := range strings.Split(root.PersistentFlags().FlagUsages(), "\n") {
		if m := usageFlagName.FindStringSubmatch(line); m != nil {
			persistent = append(persistent, m[1])
		}
	}
	if len(persistent) < len(everyCommonFlag) {
		t.Fatalf("read %v from the persistent flags' usage", persistent)
	}
	for _, name := range persistent {
		if !slices.Contains(everyCommonFlag, name) {
			t.Errorf("persistent flag --%s is not in everyCommonFlag: no command would be checked for it", name)
		}
	}
	seen := map[string]bool{}
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			name := commandName(sub)
			if sub.Runnable() && name != "help" && name != "completion" && !strings.HasPrefix(name, "completion ") {
				seen[name] = true
				if _, ok := commonUses[name]; !ok {
					t.Errorf("%s is not in commonUses", name)
				}
			}
			walk(sub)
		}
	}
	walk(root)
	for name, use := range commonUses {
		if !seen[name] {
			t.Errorf("commonUses lists %s, which is no command", name)
		}
		for _, f := range use.flags {
			if !slices.Contains(everyCommonFlag, f) {
				t.Errorf("%s honours --%s, which is no common flag", name, f)
			}
		}
	}
}

// A common flag a command does not honour is refused (exit 2, naming both) before anything is
// read, sent or written: `gids --report json=F` used to exit 0 and write nothing.
func TestUnusedCommonFlagIsRefused(t *testing.T) {
	dir := t.TempDir()
	inv := filepath.Join(dir, "inventory.yaml")
	if err := os.WriteFile(inv, []byte("version: 1\nhosts:\n  - {name: gpu1, address: 127.0.0.1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(dir, "report.json")
	values := map[string][]string{
		"format": {"--format", "json"}, "report": {"--report", "json=" + report}, "fail-on": {"--fail-on", "warning"},
		"concurrency": {"--concurrency", "2"}, "timeout": {"--timeout", "5s"}, "deadline": {"--deadline", "1m"},
		"only": {"--only", "HOST-MTU"}, "skip": {"--skip", "HOST-MTU"}, "no-color": {"--no-color"}, "quiet": {"--quiet"},
		"waivers": {"--waivers", filepath.Join(dir, "waivers.yaml")}, "verbose": {"-v"}, "trust-on-first-use": {"--trust-on-first-use"},
	}
	// Arguments each command accepts, so the flags are what is judged.
	args := map[string][]string{
		"audit": {"-i", inv}, "transfer": {"-i", inv, "gpu1", "gpu2"}, "demo": {},
		"check": {"snap.json"}, "collect": {"-i", inv, "-o", filepath.Join(dir, "snap.json")},
		"path": {"-i", inv, "gpu1", "gpu2"}, "gids": {"-i", inv, "gpu1"}, "plan": {"-i", inv}, "validate": {"-i", inv},
		"diff": {"old.json", "new.json"}, "checks": {}, "explain": {"HOST-MTU"}, "version": {}, "lab up": {"--dir", filepath.Join(dir, "lab")},
	}
	refused := 0
	for name, use := range commonUses {
		for _, flag := range everyCommonFlag {
			if slices.Contains(use.flags, flag) || slices.Contains(takenByEvery, flag) {
				continue
			}
			refused++
			argv := append(append(strings.Fields(name), args[name]...), values[flag]...)
			code, out, errs := run(t, argv...)
			if code != exitUsage || out != "" || !strings.Contains(errs, name+" does not use --"+flag) {
				t.Errorf("%v: exit %d, stdout %q, stderr %q", argv, code, out, errs)
			}
		}
	}
	if refused < 50 {
		t.Errorf("only %d refusals tried", refused)
	}
	if _, err := os.Stat(report); err == nil {
		t.Error("a refused run wrote its --report")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("a refused run wrote files: %v", entries)
	}

	// --format is checked against what the command prints.
	for _, argv := range [][]string{
		{"validate", "-i", inv, "--format", "html"}, {"validate", "-i", inv, "--format", "json"},
		{"checks", "--format", "junit"}, {"explain", "HOST-MTU", "--format", "json"}, {"version", "--format", "markdown"},
		{"plan", "-i", inv, "--format", "yaml"}, {"gids", "-i", inv, "gpu1", "--format", "html"},
		{"path", "-i", inv, "gpu1", "gpu2", "--format", "prometheus"}, {"diff", "a.json", "b.json", "--format", "html"},
	} {
		code, out, errs := run(t, argv...)
		if code != exitUsage || out != "" || !strings.Contains(errs, argv[0]+" prints ") || !strings.Contains(errs, `not "`+argv[len(argv)-1]+`"`) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", argv, code, out, errs)
		}
	}

	// What a command honours still works.
	for _, tc := range []struct {
		argv []string
		want string
	}{
		{[]string{"validate", "-i", inv, "--format", "yaml", "--timeout", "45s"}, "timeout: 45s"},
		{[]string{"checks", "--format", "json"}, `"id": "HOST-MTU"`},
		{[]string{"explain", "HOST-MTU", "--format", "text"}, "HOST-MTU"},
		{[]string{"version", "--format", "text"}, "roceaudit "},
		{[]string{"plan", "-i", inv, "--format", "json"}, `"name": "gpu1"`},
		{[]string{"checks", "--no-color"}, "HOST-MTU"}, // every command takes --no-color
		{[]string{"version", "--no-color"}, "roceaudit "},
	} {
		code, out, errs := run(t, tc.argv...)
		if code != exitOK || !strings.Contains(out, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, stdout without %q:\n%s", tc.argv, code, errs, tc.want, out)
		}
	}
}
