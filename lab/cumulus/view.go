package cumulus

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/lab/nosfmt"
	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// roceSPToTC is the switch-priority to traffic-class map `nv set qos roce` applies: RoCE (3)
// and CNP (6) get their own traffic classes, every other switch priority shares class 0
// (Cumulus "Default RoCE Configuration", CumulusNetworks/docs RoCE page).
var roceSPToTC = [8]int{0, 0, 0, 3, 0, 0, 6, 0}

// roceStrict is the RoCE profile's ETS: traffic class 6 strict, 0 and 3 DWRR 50%.
var roceStrict = [8]bool{6: true}

// Regime says how the switch is rendered and why: RoCE mode (`nv set qos roce mode lossless`)
// when every port is what that profile applies, else the generic per-port QoS profiles (RoCE
// disabled), which can express each port on its own. The collector picks its commands by the
// same switch-wide answer of `nv show qos roce`.
func Regime(sw *switchstate.Switch) (roce bool, why string) {
	var ecn [8]bool
	for i, p := range sw.Ports {
		if reason := notRoCE(p); reason != "" {
			return false, fmt.Sprintf("%s: %s", p.Name, reason)
		}
		if i == 0 {
			ecn = p.ECN
		} else if p.ECN != ecn {
			return false, fmt.Sprintf("%s: ECN on traffic classes %s, %s on %s: RoCE mode marks the same classes on every port",
				p.Name, list(p.ECN), list(ecn), sw.Ports[0].Name)
		}
	}
	return true, "every port follows the RoCE lossless profile"
}

// notRoCE says why a port is not what RoCE lossless mode applies ("" when it is).
func notRoCE(p *switchstate.Port) string {
	pfc, lossless := rocePFC, rocePFC
	switch {
	case !p.TrustDSCP:
		return "does not trust DSCP (RoCE mode trusts pcp,dscp)"
	case p.DSCPToTC != roceDSCP:
		return "DSCP map differs from RoCE mode's (DSCP d -> switch priority d>>3)"
	case p.PFCRX != pfc || p.PFCTX != pfc:
		return fmt.Sprintf("PFC rx %s, tx %s (RoCE mode: 3 both ways)", list(p.PFCRX), list(p.PFCTX))
	case p.Strict != roceStrict:
		return fmt.Sprintf("strict queues %s (RoCE mode: 6)", list(p.Strict))
	case p.Lossless != lossless:
		return fmt.Sprintf("lossless priority groups %s (RoCE mode: 3)", list(p.Lossless))
	}
	return ""
}

// Regime runs for every per-port command and checks every port: RoCE mode's fixed values
// are built once, not per port per command (a 256-port spine's collection was 1 s of lab CPU).
var (
	roceDSCP = roceDSCPMap()
	rocePFC  = func() (set [8]bool) { set[switchstate.RoCEPriority] = true; return set }()
)

// roceDSCPMap is RoCE mode's DSCP to switch-priority map, which is also what
// switchstate.HealthyPort gives a port.
func roceDSCPMap() [64]int {
	var m [64]int
	for d := range m {
		m[d] = d >> 3
	}
	return m
}

// view is a port's effective QoS as NVUE shows it in either regime.
type view struct {
	roce     bool
	trust    string  // mapping profile word: l2, l3, both
	spToTC   [8]int  // switch priority -> traffic class
	pfc      [8]bool // switch priorities with PFC (either direction)
	rx, tx   bool
	watchdog bool
	lossless [8]bool // switch priorities of the lossless pool
}

func portView(p *switchstate.Port, roce bool) view {
	v := view{roce: roce, trust: "l3", spToTC: [8]int{0, 1, 2, 3, 4, 5, 6, 7}, lossless: p.Lossless}
	switch {
	case roce:
		v.trust, v.spToTC = "both", roceSPToTC
	case !p.TrustDSCP:
		v.trust = "l2"
	}
	for i := range v.pfc {
		v.pfc[i] = p.PFCRX[i] || p.PFCTX[i]
		v.rx = v.rx || p.PFCRX[i]
		v.tx = v.tx || p.PFCTX[i]
		v.watchdog = v.watchdog || p.Watchdog[i]
	}
	return v
}

// trafficClasses are the classes some switch priority maps to, in order.
func (v view) trafficClasses() []int {
	var out []int
	for _, tc := range v.spToTC {
		if !slices.Contains(out, tc) {
			out = append(out, tc)
		}
	}
	slices.Sort(out)
	return out
}

// list renders the members of a per-priority array ("0,3"; "-" for none, as NVUE does).
func list(set [8]bool) string { return nosfmt.List(set, "-") }

func ints(ns []int) string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = strconv.Itoa(n)
	}
	if len(out) == 0 {
		return "-"
	}
	return strings.Join(out, ",")
}
