package main

import (
	"encoding/json"
	"fmt"
	"net"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

// gidRow is one GID entry with whether it is the one to use for its address.
type gidRow struct {
	topology.GID
	UseForIP bool `json:"use_for_ip"` // the RoCE v2 entry of an IP on this port's netdev or VLAN
}

type gidPort struct {
	Netdev     string   `json:"netdev"`
	RDMADevice string   `json:"rdma_device"`
	RDMAPort   int      `json:"rdma_port"`
	GIDs       []gidRow `json:"gids"`
	Error      string   `json:"error,omitempty"`
}

func (a *app) gidsCmd() *cobra.Command {
	var inv string
	cmd := &cobra.Command{
		Use:   "gids -i INVENTORY HOST",
		Short: "Print a host's GID tables, marking the RoCE v2 entry to use per IP",
		Args:  exactArgs(1, "a host name from the inventory"),
		RunE: func(cmd *cobra.Command, args []string) error {
			in, err := a.loadInventory(inv)
			if err != nil {
				return err
			}
			spec, ok := in.Device(args[0])
			if !ok || spec.Role != topology.RoleHost {
				return usagef("%q is not a host in %s", args[0], in.File)
			}
			one := *in
			one.Devices = []inventory.DeviceSpec{spec}
			snap, err := a.collect(cmd.Context(), &one)
			if err != nil {
				return err
			}
			dev := snap.Devices[0]
			if !dev.Reachable || dev.Host == nil {
				fmt.Fprintf(a.stderr, "roceaudit: %s: %s\n", dev.Name, dev.Error)
				return auditResult{incomplete: true}
			}
			ports := gidTables(dev.Host)
			if a.format == "json" {
				enc := json.NewEncoder(a.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(map[string]any{"host": dev.Name, "ports": ports})
			}
			a.printGIDs(dev.Name, ports)
			return nil
		},
	}
	inventoryFlag(cmd, &inv)
	return cmd
}

func gidTables(h *topology.HostFacts) []gidPort {
	var out []gidPort
	for _, p := range h.Ports {
		gp := gidPort{Netdev: p.Netdev, RDMADevice: p.RDMADevice, RDMAPort: p.RDMAPort}
		if !p.GIDs.Usable() {
			gp.Error = p.GIDs.Source.Error
			out = append(out, gp)
			continue
		}
		use := map[int]bool{}
		for _, n := range append([]topology.Netdev{p.Link.Value}, p.Uppers...) {
			for _, addr := range n.Addresses {
				ip := net.ParseIP(addr)
				if ip == nil || ip.IsLinkLocalUnicast() {
					continue
				}
				for _, g := range p.GIDs.Value {
					if g.Type == topology.GIDTypeV2 && g.Netdev == n.Name && net.ParseIP(g.IP).Equal(ip) {
						use[g.Index] = true
						break
					}
				}
			}
		}
		for _, g := range p.GIDs.Value {
			gp.GIDs = append(gp.GIDs, gidRow{GID: g, UseForIP: use[g.Index]})
		}
		out = append(out, gp)
	}
	return out
}

func (a *app) printGIDs(host string, ports []gidPort) {
	for i, p := range ports {
		if i > 0 {
			fmt.Fprintln(a.stdout)
		}
		if p.RDMADevice == "" {
			fmt.Fprintf(a.stdout, "%s %s: no RDMA device bound\n", host, p.Netdev)
			continue
		}
		fmt.Fprintf(a.stdout, "%s %s (%s port %d)\n", host, p.Netdev, p.RDMADevice, p.RDMAPort)
		if p.Error != "" {
			fmt.Fprintf(a.stdout, "  GID table not readable: %s\n", p.Error)
			continue
		}
		tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "  INDEX\tTYPE\tNETDEV\tADDRESS\tGID\t")
		for _, g := range p.GIDs {
			mark := ""
			if g.UseForIP {
				mark = "<- RoCE v2 for " + g.IP
			}
			fmt.Fprintf(tw, "  %d\t%s\t%s\t%s\t%s\t%s\n", g.Index, g.Type, g.Netdev, g.IP, g.GID.GID, mark)
		}
		_ = tw.Flush()
	}
}
