package main

import (
	"encoding/json"
	"fmt"
	"net"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/reports"
	"github.com/roceaudit/roceaudit/topology"
)

// reportPaths converts resolved paths for the report.
func reportPaths(rps []checks.ResolvedPath) []reports.Path {
	out := []reports.Path{}
	for _, rp := range rps {
		p := reports.Path{From: rp.From.String(), To: rp.To.String(), Paths: [][]reports.Hop{}}
		if rp.Err != nil {
			p.From, p.To = rp.Spec.From, rp.Spec.To
		}
		for _, hops := range rp.Paths {
			var hs []reports.Hop
			for _, h := range hops {
				hs = append(hs, reports.Hop{Device: h.Device, InPort: h.InPort, OutPort: h.OutPort})
			}
			p.Paths = append(p.Paths, hs)
		}
		out = append(out, p)
	}
	return out
}

func (a *app) pathCmd() *cobra.Command {
	var inv string
	cmd := &cobra.Command{
		Use:   "path -i INVENTORY FROM TO",
		Short: "Print every equal-cost path between two endpoints as a hop table",
		Long: "Collects the fabric, resolves every equal-cost shortest path between FROM and TO " +
			"(host, host:netdev or the IP of an RDMA netdev) and prints each hop's ports with their " +
			"MTU, PFC priorities, trust and DCBX mode, so you see where a path stops being lossless.",
		Args: exactArgs(2, "two endpoints"),
		RunE: func(cmd *cobra.Command, args []string) error {
			in, err := a.loadInventory(inv)
			if err != nil {
				return err
			}
			if err := checkEndpoints(in, []checks.PathSpec{{From: args[0], To: args[1]}}, "%s %s"); err != nil {
				return err
			}
			snap, err := a.collect(cmd.Context(), in)
			if err != nil {
				return err
			}
			rp := checks.ResolvePaths(snap, []checks.PathSpec{{From: args[0], To: args[1]}})[0]
			// An endpoint the fabric did not answer for is missing data, not bad input, and
			// no path to it proves nothing: exit 3, as gids and transfer do.
			missing := uncollected(snap, rp.Spec)
			if rp.Err != nil && len(missing) == 0 {
				return usageError{rp.Err}
			}
			if rp.Err != nil || (len(rp.Paths) == 0 && len(missing) > 0) {
				a.printUncollected(rp, missing)
				return auditResult{incomplete: true}
			}
			if a.format == "json" {
				enc := json.NewEncoder(a.stdout)
				enc.SetIndent("", "  ")
				if err := enc.Encode(reportPaths([]checks.ResolvedPath{rp})[0]); err != nil {
					return err
				}
			} else {
				a.printPaths(snap, rp)
			}
			if len(rp.Paths) == 0 {
				return auditResult{failed: true}
			}
			return nil
		},
	}
	inventoryFlag(cmd, &inv)
	return cmd
}

// uncollected names the hosts that may be why an endpoint of sp did not resolve, or has no
// path: not a mistyped endpoint but a device that was not (fully) collected — a named host
// that was unreachable or whose facts could not be read, or, for an IP address, every host
// whose addresses are unknown (it may be theirs).
func uncollected(snap *topology.Snapshot, sp checks.PathSpec) []*topology.Device {
	var out []*topology.Device
	for _, e := range []string{sp.From, sp.To} {
		ip := net.ParseIP(e) != nil
		if _, err := topology.ResolveEndpoint(snap, e); err == nil {
			ip = false // resolved: only the named host's own facts can be missing
		}
		name, _, _ := strings.Cut(e, ":")
		for _, d := range snap.Devices {
			if (ip || d.Name == name) && d.Role == topology.RoleHost && (!d.Reachable || d.Error != "" || d.Host == nil) &&
				!slices.Contains(out, d) {
				out = append(out, d)
			}
		}
	}
	return out
}

// printUncollected says on stderr why the paths of rp are not known.
func (a *app) printUncollected(rp checks.ResolvedPath, missing []*topology.Device) {
	if rp.Err != nil {
		fmt.Fprintf(a.stderr, "roceaudit: %v\n", rp.Err)
	} else {
		fmt.Fprintf(a.stderr, "roceaudit: no path from %s to %s is known\n", rp.Spec.From, rp.Spec.To)
	}
	for _, d := range missing {
		why := d.Error
		if why == "" {
			why = "no facts collected"
		}
		if rp.Err != nil && strings.Contains(rp.Err.Error(), why) {
			continue // said already
		}
		fmt.Fprintf(a.stderr, "roceaudit: %s could not be collected: %s\n", d.Name, why)
	}
}

// printPaths writes one hop table per equal-cost path.
func (a *app) printPaths(snap *topology.Snapshot, rp checks.ResolvedPath) {
	if len(rp.Paths) == 0 {
		fmt.Fprintf(a.stdout, "no path joins %s and %s: check LLDP on the switches or declare links in the inventory\n", rp.From, rp.To)
		return
	}
	facts := newPortFacts(snap)
	fmt.Fprintf(a.stdout, "%s -> %s: %d equal-cost path(s)\n", rp.From, rp.To, len(rp.Paths))
	for i, hops := range rp.Paths {
		fmt.Fprintf(a.stdout, "\npath %d via %s\n", i+1, checks.Via(hops))
		tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "  HOP\tDEVICE\tIN\tOUT\tMTU\tPFC\tTRUST\tDCBX")
		for n, h := range hops {
			var ports []string
			for _, p := range []string{h.InPort, h.OutPort} {
				if p != "" {
					ports = append(ports, p)
				}
			}
			cols := facts.describe(h.Device, ports)
			fmt.Fprintf(tw, "  %d\t%s\t%s\t%s\t%s\n", n+1, h.Device, dash(h.InPort), dash(h.OutPort), strings.Join(cols, "\t"))
		}
		_ = tw.Flush()
	}
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// portFacts summarizes collected facts per port for the hop table.
type portFacts struct{ devices map[string]*topology.Device }

func newPortFacts(s *topology.Snapshot) portFacts {
	m := map[string]*topology.Device{}
	for _, d := range s.Devices {
		m[d.Name] = d
	}
	return portFacts{m}
}

// describe returns MTU, PFC, trust and DCBX columns for a hop's ports ("a/b" when in and out
// differ, "?" when unknown).
func (pf portFacts) describe(device string, ports []string) []string {
	cols := make([][]string, 4)
	d := pf.devices[device]
	for _, port := range ports {
		v := [4]string{"?", "?", "?", "?"}
		switch {
		case d == nil || !d.Reachable:
		case d.Host != nil:
			if p := d.Host.Port(port); p != nil {
				if p.Link.Usable() {
					v[0] = fmt.Sprint(p.Link.Value.MTU)
				}
				if p.QoS.Usable() {
					v[1] = pfcText(p.QoS.Value.PFC)
					v[2] = p.QoS.Value.Trust
				}
				if p.DCBX.Usable() {
					v[3] = p.DCBX.Value.Mode
				}
			}
		case d.Switch != nil:
			for _, p := range d.Switch.Ports {
				if topology.NormalizePort(p.Name) != topology.NormalizePort(port) {
					continue
				}
				if p.MTU.Usable() {
					v[0] = fmt.Sprint(p.MTU.Value.Configured)
				}
				if p.PFC.Usable() {
					v[1] = strings.TrimPrefix(strings.TrimPrefix(checks.Priorities(p.PFC.Value.TX), "priorities "), "priority ")
				}
				if p.Trust.Usable() {
					v[2] = p.Trust.Value
				}
				if p.DCBX.HasValue() && p.DCBX.Value.Mode != "" {
					v[3] = p.DCBX.Value.Mode
				}
			}
		}
		for i := range cols {
			cols[i] = append(cols[i], v[i])
		}
	}
	out := make([]string, 4)
	for i, c := range cols {
		if len(c) == 2 && c[0] == c[1] {
			c = c[:1]
		}
		out[i] = strings.Join(c, "/")
	}
	return out
}

func pfcText(bits [8]bool) string {
	var on []string
	for i, b := range bits {
		if b {
			on = append(on, fmt.Sprint(i))
		}
	}
	if len(on) == 0 {
		return "none"
	}
	return strings.Join(on, ",")
}
