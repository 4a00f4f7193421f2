package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/recipe"
)

func (a *app) checksCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "checks",
		Short: "List the check catalog",
		Args:  noArgs,
		RunE: func(_ *cobra.Command, _ []string) error {
			r := recipe.Default()
			if a.format == "json" {
				type entry struct {
					ID       string `json:"id"`
					Scope    string `json:"scope"`
					Severity string `json:"severity"`
					Title    string `json:"title"`
					Expected string `json:"expected"`
				}
				var out []entry
				for _, c := range checks.Catalog() {
					out = append(out, entry{c.ID, string(c.Scope), string(c.Severity), c.Title, c.Expected(r)})
				}
				enc := json.NewEncoder(a.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(out)
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tSCOPE\tSEVERITY\tPASSES WHEN")
			for _, c := range checks.Catalog() {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", c.ID, c.Scope, c.Severity, c.Title)
			}
			return tw.Flush()
		},
	}
}

func (a *app) explainCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "explain CHECK-ID",
		Short: "One check's rationale, sources and remediation",
		Args:  exactArgs(1, "a check ID (see `roceaudit checks`)"),
		RunE: func(_ *cobra.Command, args []string) error {
			c, ok := checks.Lookup(args[0])
			if !ok {
				return usageError{checks.ValidateIDs(args)}
			}
			r := recipe.Default()
			w := a.stdout
			fmt.Fprintf(w, "%s  (%s, severity %s)\n\n", c.ID, c.Scope, c.Severity)
			fmt.Fprintf(w, "Passes when: %s\n", c.Title)
			fmt.Fprintf(w, "Expected with the default recipe: %s\n\n", c.Expected(r))
			fmt.Fprintf(w, "Why it matters:\n  %s\n\n", c.Rationale)
			a.explainRemediation(c, r)
			fmt.Fprintf(w, "\nSources:\n  %s\n", strings.Join(c.Sources, "\n  "))
			return nil
		},
	}
}

// explainRemediation prints each platform's fix for c under r on the platform's example port
// and facts (there is no device here), exactly as an audit of such a port prints it, then the
// check's platform-neutral hint.
func (a *app) explainRemediation(c *checks.Check, r recipe.Recipe) {
	w := a.stdout
	fmt.Fprintln(w, "Remediation (default recipe; the ports and their state are examples):")
	for _, name := range a.reg.Names() {
		p, _ := a.reg.Get(name)
		fix := p.Remediation(p.Example(c.ID, r))
		if fix == "" {
			continue
		}
		fmt.Fprintf(w, "  %s, on example port %s:\n    %s\n", name, p.ExamplePort(), strings.ReplaceAll(fix, "\n", "\n    "))
	}
	if c.Hint != "" {
		fmt.Fprintf(w, "  any platform: %s\n", c.Hint)
	}
}
