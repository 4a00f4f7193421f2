package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/perftest"
	"github.com/roceaudit/roceaudit/collectors/sshclient"
	"github.com/roceaudit/roceaudit/topology"
)

type planDevice struct {
	Name     string   `json:"name"`
	Platform string   `json:"platform"`
	Address  string   `json:"address"`
	Port     int      `json:"port"`
	User     string   `json:"user"`
	Via      []string `json:"via,omitempty"` // jump hosts, outermost first
	Commands []string `json:"commands"`
	// TransferCommands run on hosts only with --transfer (perftest, bounded by timeout).
	TransferCommands []string `json:"transfer_commands,omitempty"`
	// SessionInput is what an interactive CLI session types itself (terminal setup, exit).
	SessionInput []string `json:"session_input,omitempty"`
}

func (a *app) planCmd() *cobra.Command {
	var inv string
	cmd := &cobra.Command{
		Use:   "plan -i INVENTORY [--format json]",
		Short: "Print every command that would be sent, per device (nothing is sent)",
		Args:  noArgs,
		RunE: func(_ *cobra.Command, _ []string) error {
			in, err := a.loadInventory(inv)
			if err != nil {
				return err
			}
			var devs []planDevice
			for _, spec := range in.Devices {
				p, _ := a.reg.Get(spec.Platform) // the loader has checked the platform
				cmds := p.Plan(spec)
				if spec.Conn.Sudo {
					for i := range cmds {
						if !strings.HasPrefix(cmds[i], collectors.SudoPrefix) {
							cmds[i] = collectors.SudoPrefix + cmds[i]
						}
					}
				}
				d := planDevice{Name: spec.Name, Platform: spec.Platform, Address: spec.Address, Commands: cmds}
				d.User, d.Port, d.Via = planEndpoint(spec)
				if spec.Role == topology.RoleHost {
					d.TransferCommands = transferCommands(p)
				}
				if c, ok := p.CLI(); ok {
					d.SessionInput = c.SetupInput
				}
				devs = append(devs, d)
			}
			if a.format == "json" {
				enc := json.NewEncoder(a.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(map[string]any{"devices": devs})
			}
			for i, d := range devs {
				if i > 0 {
					fmt.Fprintln(a.stdout)
				}
				fmt.Fprintf(a.stdout, "%s (%s) %s@%s:%d\n", d.Name, d.Platform, d.User, d.Address, d.Port)
				if len(d.Via) > 0 {
					fmt.Fprintf(a.stdout, "  via %s\n", strings.Join(d.Via, " -> "))
				}
				for _, c := range d.Commands {
					fmt.Fprintln(a.stdout, "  "+c)
				}
				if len(d.SessionInput) > 0 {
					fmt.Fprintf(a.stdout, "  (the CLI session also types: %q)\n", d.SessionInput)
				}
			}
			fmt.Fprintln(a.stdout, "\nEvery command is read-only and on the platform allowlist; {if}, {dev}, {port} and {slave} (each slave PF of a bond) are filled in after discovery with validated names.")
			fmt.Fprintln(a.stdout, "With --transfer (or `roceaudit transfer`), hosts also run perftest, always bounded by coreutils timeout:")
			for _, t := range perftest.Templates() {
				fmt.Fprintln(a.stdout, "  "+t)
			}
			return nil
		},
	}
	inventoryFlag(cmd, &inv)
	return cmd
}

// transferCommands are the test transfer's commands that p's command set allows: a host
// platform without perftest runs no transfer.
func transferCommands(p *collectors.Descriptor) []string {
	var out []string
	for _, t := range perftest.Templates() {
		if slices.Contains(p.Commands(), t) {
			out = append(out, t)
		}
	}
	return out
}

func (a *app) validateCmd() *cobra.Command {
	var inv string
	cmd := &cobra.Command{
		Use:   "validate -i INVENTORY [--format yaml]",
		Short: "Validate the inventory and recipe, and warn of what this machine's SSH files lack (no SSH); --format yaml prints it as a roceaudit inventory",
		Args:  noArgs,
		RunE: func(_ *cobra.Command, _ []string) error {
			in, err := a.loadInventory(inv)
			if err != nil {
				return err
			}
			if a.format == "yaml" {
				return a.printInventoryYAML(in) // may be for another machine: its SSH files are not read
			}
			// An inventory is often validated where it is kept, not where it is run from: what
			// this machine's SSH files lack is a warning here, and an error when collecting.
			if err := sshclient.CheckLocal(in, a.tofu); err != nil {
				a.warn(err.Error())
			}
			hosts, switches := 0, 0
			for _, d := range in.Devices {
				if d.Role == "switch" {
					switches++
				} else {
					hosts++
				}
			}
			fmt.Fprintf(a.stdout, "%s: valid (%d hosts, %d switches, %d links, %d paths)\n", in.File, hosts, switches, len(in.Links), len(in.Paths))
			return nil
		},
	}
	inventoryFlag(cmd, &inv)
	return cmd
}
