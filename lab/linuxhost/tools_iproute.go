package linuxhost

import "strings"

// iproute2's ip, rdma and dcb read their arguments alike: options first ("-j", "--json" or
// any prefix of the long name), then an object and a command, each abbreviable to any prefix
// (the first entry of the tool's table that the word is a prefix of wins).

// iprouteOpts reads the leading options of an iproute2 tool against its table of long names
// ("-json", ...); the rest of args is returned. unknown is the first option no name starts
// with.
func iprouteOpts(args []string, names []string) (set map[string]bool, rest []string, unknown string) {
	set = map[string]bool{}
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && len(args[0]) > 1 {
		opt := strings.TrimPrefix(args[0], "-")
		if strings.HasPrefix(opt, "-") {
			opt = opt[1:]
		}
		name := prefixOf(opt, names)
		if name == "" {
			return nil, nil, args[0]
		}
		set[name] = true
		args = args[1:]
	}
	return set, args, ""
}

// prefixOf is the first name that word abbreviates ("" for none).
func prefixOf(word string, names []string) string {
	if word == "" {
		return ""
	}
	for _, n := range names {
		if strings.HasPrefix(n, word) {
			return n
		}
	}
	return ""
}

// ipOptions and ipObjects are ip's tables (ip/ip.c), in their order.
var (
	ipOptions  = []string{"4", "6", "0", "family", "loops", "stats", "statistics", "details", "resolve", "oneline", "timestamp", "tshort", "force", "batch", "brief", "json", "pretty", "netns", "Numeric", "all", "color", "rcvbuf", "help", "Version"}
	ipObjects  = []string{"address", "addrlabel", "maddress", "route", "rule", "neighbor", "neighbour", "ntable", "ntbl", "link", "l2tp", "fou", "ila", "macsec", "tunnel", "tuntap", "tap", "token", "tcpmetrics", "tcp_metrics", "monitor", "xfrm", "mroute", "mrule", "netns", "netconf", "vrf", "sr", "nexthop", "mptcp", "ioam", "stats", "help"}
	ipAddrCmds = []string{"add", "change", "replace", "delete", "list", "show", "lst", "flush", "save", "showdump", "restore", "help"}
)

// ip is `ip -d -j addr show` (details, JSON): every netdev with its addresses.
func (h *Host) ip(args []string) (string, string, int) {
	opts, rest, bad := iprouteOpts(args, ipOptions)
	if bad != "" {
		return "", "Option \"" + bad + "\" is unknown, try \"ip -help\".\n", 255
	}
	if len(rest) == 0 {
		return "", ipUsage, 255
	}
	switch prefixOf(rest[0], ipObjects) {
	case "":
		return "", "Object \"" + rest[0] + "\" is unknown, try \"ip help\".\n", 1
	case "address":
	default:
		return notEmulated(append([]string{"ip"}, args...)...)
	}
	cmd := "show"
	if len(rest) > 1 {
		cmd = prefixOf(rest[1], ipAddrCmds)
		if cmd == "" {
			return "", "Command \"" + rest[1] + "\" is unknown, try \"ip address help\".\n", 255
		}
	}
	if cmd != "show" && cmd != "lst" && cmd != "list" || len(rest) > 2 || !opts["json"] || !opts["details"] || len(opts) != 2 {
		return notEmulated(append([]string{"ip"}, args...)...)
	}
	return h.renderIPAddr(), "", 0
}

const ipUsage = "Usage: ip [ OPTIONS ] OBJECT { COMMAND | help }\n"

// rdmaObjects and rdmaLinkCmds are rdma's tables (rdma/rdma.c, rdma/link.c).
var (
	rdmaOptions  = []string{"Version", "help", "json", "pretty", "details", "raw", "force", "batch"}
	rdmaObjects  = []string{"help", "dev", "link", "resource", "system", "statistic", "monitor"}
	rdmaLinkCmds = []string{"show", "list", "add", "delete", "help"}
)

// rdma is `rdma link show`: one line per RDMA port.
func (h *Host) rdma(args []string) (string, string, int) {
	opts, rest, bad := iprouteOpts(args, rdmaOptions)
	if bad != "" {
		return "", "rdma: invalid option -- '" + strings.TrimLeft(bad, "-") + "'\nUsage: rdma [ OPTIONS ] OBJECT { COMMAND | help }\n", 1
	}
	if len(rest) == 0 {
		return "", "Usage: rdma [ OPTIONS ] OBJECT { COMMAND | help }\n", 1
	}
	switch prefixOf(rest[0], rdmaObjects) {
	case "":
		return "", "Unknown object \"" + rest[0] + "\".\n", 1
	case "link":
	default:
		return notEmulated(append([]string{"rdma"}, args...)...)
	}
	cmd := "show"
	if len(rest) > 1 {
		cmd = prefixOf(rest[1], rdmaLinkCmds)
		if cmd == "" {
			return "", "Unknown command \"" + rest[1] + "\".\n", 1
		}
	}
	if cmd != "show" && cmd != "list" || len(rest) > 2 || len(opts) != 0 {
		return notEmulated(append([]string{"rdma"}, args...)...)
	}
	return h.renderRdmaLink(), "", 0
}

// dcb's tables (dcb/dcb.c and the per-object files).
var (
	dcbOptions = []string{"batch", "force", "help", "iec", "json", "netns", "pretty", "statistics", "verbose", "Numeric", "Version"}
	dcbObjects = []string{"help", "app", "apptrust", "buffer", "dcbx", "ets", "maxrate", "pfc", "rewr"}
)

// dcb is `dcb -j [-N] {app|pfc|dcbx} show dev IF` (JSON).
func (h *Host) dcb(args []string) (string, string, int) {
	opts, rest, bad := iprouteOpts(args, dcbOptions)
	if bad != "" {
		return "", "dcb: invalid option -- '" + strings.TrimLeft(bad, "-") + "'\nUsage: dcb [ OPTIONS ] OBJECT { COMMAND | help }\n", 1
	}
	if len(rest) == 0 {
		return "", "Usage: dcb [ OPTIONS ] OBJECT { COMMAND | help }\n", 1
	}
	object := prefixOf(rest[0], dcbObjects)
	if object == "" {
		return "", "Object \"" + rest[0] + "\" is unknown\n", 1
	}
	if len(rest) < 2 || prefixOf(rest[1], []string{"show", "set", "add", "del", "replace", "flush", "help"}) != "show" {
		return notEmulated(append([]string{"dcb"}, args...)...)
	}
	if len(rest) < 4 || prefixOf(rest[2], []string{"dev"}) == "" {
		what := "dev"
		if len(rest) > 2 {
			what = rest[2]
		}
		return "", "What is \"" + what + "\"?\n", 1
	}
	numeric := opts["Numeric"]
	delete(opts, "Numeric")
	if len(rest) > 4 || !opts["json"] || len(opts) != 1 || object == "app" && !numeric {
		return notEmulated(append([]string{"dcb"}, args...)...)
	}
	switch ifname := rest[3]; object {
	case "app":
		return h.renderDcbApp(ifname)
	case "pfc":
		return h.renderDcbPFC(ifname)
	case "dcbx":
		return h.renderDcbDCBX(ifname)
	}
	return notEmulated(append([]string{"dcb"}, args...)...)
}
