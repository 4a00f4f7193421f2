package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/platforms"
	"github.com/roceaudit/roceaudit/reports"
	"github.com/roceaudit/roceaudit/topology"
	"github.com/roceaudit/roceaudit/waivers"
)

// app is the state one invocation shares between commands: streams, the platform registry
// and the common flags.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	reg            *collectors.Registry

	format      string
	reportSpecs []string
	failOn      string
	concurrency int
	timeout     time.Duration
	only, skip  []string
	noColor     bool
	quiet       bool
	verbose     bool
	tofu        bool
	deadline    time.Duration
	// spool keeps transcripts of a collection whose snapshot is written (collect -o).
	spool *topology.TranscriptSpool
	// interrupted marks the report of a run stopped by Ctrl-C or the deadline as partial.
	interrupted string
	waiversFile string
	waiverList  []waivers.Waiver // read from waiversFile by checkOptions
}

// Main runs roceaudit with args and returns the exit code; tests call it directly.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return mainWith(ctx, platforms.Registry(), args, stdin, stdout, stderr)
}

// mainWith is Main over the platforms of reg: everything platform-specific (inventory
// platforms and imports, plan, dialling, the allowlists, remediation) comes from it.
func mainWith(ctx context.Context, reg *collectors.Registry, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCmd(reg, stdin, stdout, stderr)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	// Whatever a command derives from ctx (the --deadline timer) ends with the run.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	err := root.ExecuteContext(ctx)
	if errors.Is(err, context.Canceled) {
		err = fmt.Errorf("%w: %w", err, context.Cause(ctx)) // which signal, for the exit code
	}
	return exitCode(err, stderr)
}

// newRootCmd is the roceaudit command tree over the platforms of reg.
func newRootCmd(reg *collectors.Registry, stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr, reg: reg}
	root := &cobra.Command{
		Use:   "roceaudit",
		Short: "Audit RoCEv2 lossless paths end to end, agentless, over SSH (read-only)",
		Long: "roceaudit logs into RDMA hosts and switches over SSH, collects what decides whether RoCE " +
			"traffic is lossless, checks every hop against the lossless recipe and reports. " +
			"It never changes a device: every command comes from a published read-only allowlist " +
			"(see `roceaudit plan`).",
		SilenceUsage:  true,
		SilenceErrors: true,
		// --version: cobra prints the template; -v stays --verbose.
		Version: versionLine(),
	}
	root.SetVersionTemplate("{{.Version}}\n")
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error {
		if err := refuseUnusedFlags(cmd); err != nil {
			return err
		}
		return a.startDeadline(cmd)
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	f := root.PersistentFlags()
	f.StringVar(&a.format, "format", "text", "stdout format: "+reports.FormatsHelp())
	f.StringArrayVar(&a.reportSpecs, "report", nil, "also write a report file, FORMAT=FILE with FORMAT one of "+reports.FormatsHelp()+" (repeatable)")
	f.StringVar(&a.failOn, "fail-on", "error", "lowest severity of a failed check that makes the exit code 1: warning|error|critical")
	f.IntVar(&a.concurrency, "concurrency", 16, "devices collected at once")
	f.DurationVar(&a.timeout, "timeout", 0, "per-device timeout, e.g. 30s (overrides the inventory; 0 keeps the inventory's)")
	f.DurationVar(&a.deadline, "deadline", 0, "bound the whole run, e.g. 15m: devices not collected by then are reported as errors (0: none)")
	f.StringSliceVar(&a.only, "only", nil, "run only these check IDs (comma-separated)")
	f.StringSliceVar(&a.skip, "skip", nil, "skip these check IDs (comma-separated)")
	f.BoolVar(&a.noColor, "no-color", false, "no colours in text output (also NO_COLOR)")
	f.BoolVar(&a.quiet, "quiet", false, "print only the one-line summary on stdout (files from --report are still written)")
	f.StringVar(&a.waiversFile, "waivers", "", "YAML file of accepted deviations (check, device, interface globs; reason; expires YYYY-MM-DD; owner)")
	f.BoolVarP(&a.verbose, "verbose", "v", false, "list passing checks one by one")
	f.BoolVar(&a.tofu, "trust-on-first-use", false, "accept and record the host key of devices not yet in known_hosts (a changed key is still refused)")

	for _, build := range []func() *cobra.Command{
		a.auditCmd, a.collectCmd, a.checkCmd, a.pathCmd, a.transferCmd, a.gidsCmd, a.planCmd, a.validateCmd,
		a.diffCmd, a.checksCmd, a.explainCmd, a.labCmd, a.demoCmd, a.versionCmd,
	} {
		root.AddCommand(build())
	}
	return root
}

// commonUse is which of the root's common flags a command honours. A flag set on a command
// that does not use it is refused (exit 2), never dropped: `gids --report json=F` writing
// nothing, or `validate --format html` printing text, would pass for done.
type commonUse struct {
	flags []string
	// formats are the --format values the command prints, when it takes --format but not
	// every report format (those that do check --format themselves).
	formats []string
}

var (
	// everyCommonFlag is every persistent flag of the root (a test holds them equal); the
	// auditing commands, which collect, check and report, honour them all.
	everyCommonFlag = []string{"format", "report", "fail-on", "concurrency", "timeout", "deadline", "only", "skip",
		"no-color", "quiet", "waivers", "verbose", "trust-on-first-use"}
	// collecting: what a command that logs into devices takes besides its output flags
	// (--quiet hides the progress bar of a collection).
	collecting = []string{"concurrency", "timeout", "deadline", "trust-on-first-use", "quiet"}
	// takenByEvery are flags no command refuses: wrappers and aliases pass --no-color to
	// every call, and a command that prints no colour loses nothing by it.
	takenByEvery = []string{"no-color"}
)

// commonUses is keyed by the command's path below roceaudit; every runnable command has an
// entry (a test walks the tree), so a new command says what it honours.
var commonUses = map[string]commonUse{
	"audit":    {flags: everyCommonFlag},
	"transfer": {flags: everyCommonFlag},
	"demo":     {flags: everyCommonFlag},
	"check":    {flags: []string{"format", "report", "fail-on", "only", "skip", "no-color", "quiet", "waivers", "verbose"}},
	"collect":  {flags: collecting},
	"path":     {flags: append([]string{"format"}, collecting...), formats: []string{"text", "json"}},
	"gids":     {flags: append([]string{"format"}, collecting...), formats: []string{"text", "json"}},
	"plan":     {flags: []string{"format"}, formats: []string{"text", "json"}},
	// --timeout shows in the inventory validate --format yaml prints; with
	// --trust-on-first-use, validate's check of this machine's SSH files accepts a
	// known_hosts that does not know the devices yet, as collecting would.
	"validate": {flags: []string{"format", "timeout", "trust-on-first-use"}, formats: []string{"text", "yaml"}},
	"diff":     {flags: []string{"format", "report", "fail-on", "only", "skip", "quiet"}, formats: diffFormats},
	"checks":   {flags: []string{"format"}, formats: []string{"text", "json"}},
	"explain":  {flags: []string{"format"}, formats: []string{"text"}},
	"version":  {flags: []string{"format"}, formats: []string{"text"}},
	"lab up":   {flags: []string{"deadline"}}, // stops the lab when it passes
}

// commandName is cmd's path below the root ("lab up").
func commandName(cmd *cobra.Command) string {
	return strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
}

// refuseUnusedFlags refuses every common flag set on a command that does not honour it, and a
// --format the command does not print.
func refuseUnusedFlags(cmd *cobra.Command) error {
	name := commandName(cmd)
	if !cmd.HasParent() || name == "help" || name == "completion" || strings.HasPrefix(name, "completion ") || strings.HasPrefix(name, "__") {
		return nil // cobra's own commands
	}
	use, known := commonUses[name]
	if !known {
		return fmt.Errorf("internal error: %s has no list of the common flags it honours", name)
	}
	var refused []string
	for _, f := range everyCommonFlag {
		if cmd.Flags().Changed(f) && !slices.Contains(use.flags, f) && !slices.Contains(takenByEvery, f) {
			refused = append(refused, "--"+f)
		}
	}
	if len(refused) > 0 {
		takes := "it takes none of the common flags"
		if len(use.flags) > 0 {
			takes = "of the common flags it takes --" + strings.Join(use.flags, ", --")
		}
		return usagef("%s does not use %s (%s)", name, strings.Join(refused, ", "), takes)
	}
	if use.formats != nil && slices.Contains(use.flags, "format") {
		if format := cmd.Flags().Lookup("format").Value.String(); !slices.Contains(use.formats, format) {
			return usagef("%s prints %s, not %q", name, strings.Join(use.formats, " or "), format)
		}
	}
	return nil
}
