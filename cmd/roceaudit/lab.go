package main

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/lab"
)

type labFlags struct {
	scenario string
	generate string
	latency  time.Duration
	dir      string
	faults   string
}

// register adds the lab flags; lab up (withUp) also takes --dir and --generate.
func (f *labFlags) register(cmd *cobra.Command, withUp bool) {
	cmd.Flags().StringVar(&f.scenario, "scenario", f.scenario, "scenario: "+strings.Join(lab.Scenarios(), "|"))
	cmd.Flags().DurationVar(&f.latency, "latency", 0, "hold every flight a device sends for this long, e.g. 10ms (connection set-up, authentication and each command pay it)")
	if withUp {
		cmd.Flags().StringVar(&f.dir, "dir", "", "folder for inventory.yaml, known_hosts and the client key")
		cmd.Flags().StringVar(&f.generate, "generate", "", "run a generated healthy Clos instead of a scenario: hosts=H,leaves=L,spines=S[,rails=R]; "+
			"rails=R (1..8, default 1: dual-port 100G hosts) gives each host R 400G NICs, one per GPU rail, "+
			"with rail r of every host on leaf group r (L must be a multiple of R)")
		cmd.Flags().StringVar(&f.faults, "faults", "", "make devices misbehave: NAME=MODE,... with MODE one of refuse, auth-fail, stall, drop, garbage, slow, flood, no-prompt")
	}
}

// options checks the flags and turns them into lab options (the directory aside).
func (f *labFlags) options(cmd *cobra.Command) (lab.Options, error) {
	if f.latency < 0 {
		return lab.Options{}, usagef("--latency must not be negative")
	}
	faults, err := lab.ParseFaults(f.faults)
	if err != nil {
		return lab.Options{}, usagef("--faults: %w", err)
	}
	if cmd.Flags().Changed("generate") {
		if cmd.Flags().Changed("scenario") {
			return lab.Options{}, usagef("--scenario and --generate are mutually exclusive")
		}
		g, err := lab.ParseGenerate(f.generate)
		if err != nil {
			return lab.Options{}, usageError{err}
		}
		return lab.Options{Generate: &g, Latency: f.latency, Faults: faults}, nil
	}
	if !slices.Contains(lab.Scenarios(), f.scenario) {
		return lab.Options{}, usagef("--scenario %q: expected one of %s", f.scenario, strings.Join(lab.Scenarios(), ", "))
	}
	return lab.Options{Scenario: f.scenario, Latency: f.latency, Faults: faults}, nil
}

func (a *app) labCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "lab", Short: "The built-in emulated fabric (SSH servers on 127.0.0.1)"}
	f := &labFlags{scenario: "healthy"}
	up := &cobra.Command{
		Use:   "up --dir DIR [--scenario NAME | --generate hosts=H,leaves=L,spines=S[,rails=R]] [--latency D] [--faults NAME=MODE,...]",
		Short: "Start the lab, write DIR/inventory.yaml and DIR/known_hosts, run until interrupted",
		Long: "Starts the built-in emulated fabric on 127.0.0.1: a scenario (healthy, broken) or, with " +
			"--generate, a healthy generated Clos of H dual-port GPU hosts, L leaves and S spines " +
			"(switch platforms cycle SONiC, Cumulus, EOS, NX-OS), e.g. for benchmarks.",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts, err := f.options(cmd)
			if err != nil {
				return err
			}
			if f.dir == "" {
				return usagef("lab up needs --dir DIR (where inventory.yaml and known_hosts are written)")
			}
			opts.Dir = f.dir
			adviseHugeHeapOnce(lab.MemoryLimit) // the emulated devices' state and their replies
			lab.TuneRuntime()                   // this process serves the lab and nothing else
			l, err := lab.Start(cmd.Context(), opts)
			if err != nil {
				return fmt.Errorf("starting the lab: %w", err)
			}
			defer l.Close()
			fmt.Fprintf(a.stdout, "lab ready: %d devices, inventory %s\n", len(l.Devices), l.InventoryPath)
			if f, ok := a.stdout.(*os.File); ok {
				_ = f.Sync()
			}
			<-cmd.Context().Done()
			return nil
		},
	}
	f.register(up, true)
	cmd.AddCommand(up)
	return cmd
}

func (a *app) demoCmd() *cobra.Command {
	f := &labFlags{scenario: "broken"}
	cmd := &cobra.Command{
		Use:   "demo [--scenario NAME]",
		Short: "Start the built-in lab, audit it, print the report, stop the lab",
		Long: "Runs the whole audit against the emulated fabric on 127.0.0.1 and exits with the " +
			"audit's code. The `broken` scenario (default) has a fault for every check; `healthy` passes. " +
			"Broken's transfer across its polarized leaf runs with --all-paths, so XFER-COVERAGE is judged.",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			labOpts, err := f.options(cmd)
			if err != nil {
				return err
			}
			opts, failOn, err := a.checkOptions()
			if err != nil {
				return err
			}
			dir, err := os.MkdirTemp("", "roceaudit-demo-")
			if err != nil {
				return fmt.Errorf("creating the lab folder: %w", err)
			}
			defer os.RemoveAll(dir)
			labOpts.Dir = dir
			l, err := lab.Start(cmd.Context(), labOpts)
			if err != nil {
				return fmt.Errorf("starting the lab: %w", err)
			}
			defer l.Close()
			in, err := a.loadInventory(l.InventoryPath)
			if err != nil {
				return err
			}
			snap, err := a.collect(cmd.Context(), in)
			if err != nil {
				return err
			}
			// The whole fabric, plus the path checks and test transfers of the lab's paths; the
			// lab's swept paths step the flow label over every equal-cost member (--all-paths).
			// Consecutive paths of the same kind share one transfer run (one set of sessions).
			swept := lab.SweptPaths(l.Scenario)
			paths := l.Paths()
			for start := 0; start < len(paths); {
				allPaths := slices.Contains(swept, paths[start])
				end := start + 1
				for end < len(paths) && slices.Contains(swept, paths[end]) == allPaths {
					end++
				}
				var run []checks.PathSpec
				for _, p := range paths[start:end] {
					run = append(run, checks.PathSpec{From: p[0], To: p[1]})
				}
				opts.Paths = append(opts.Paths, run...)
				tf := &transferFlags{duration: 5 * time.Second, allPaths: allPaths}
				if err := a.runTransfers(cmd.Context(), in, snap, run, tf); err != nil {
					return err
				}
				start = end
			}
			return a.checkAndReport(snap, opts, failOn)
		},
	}
	f.register(cmd, false)
	return cmd
}
