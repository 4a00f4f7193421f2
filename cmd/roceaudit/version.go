package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// buildVersion is set with -ldflags "-X main.buildVersion=...".
var buildVersion = ""

func version() string {
	if buildVersion != "" {
		return buildVersion
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// versionLine is what both `roceaudit version` and `roceaudit --version` print.
func versionLine() string {
	return fmt.Sprintf("roceaudit %s (%s %s/%s)", version(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

func (a *app) versionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  noArgs,
		RunE: func(_ *cobra.Command, _ []string) error {
			fmt.Fprintln(a.stdout, versionLine())
			return nil
		},
	}
}
