package linuxhost

import "strings"

// ethtoolBadArgs is ethtool's answer to a command line it cannot parse (exit_bad_args).
const ethtoolBadArgs = "ethtool: bad command line argument(s)\nFor more information run ethtool -h\n"

// ethtoolModes are ethtool's mode options (its args[] table, abridged to the read modes and a
// few writes); a mode the lab does not render is not emulated, any other option is bad.
var ethtoolModes = map[string]string{
	"-a": "pause", "--show-pause": "pause",
	"-S": "stats", "--statistics": "stats",
	"--get-tunable": "tunable",
	"-i":            "", "--driver": "", "-k": "", "--show-features": "", "-g": "", "--show-ring": "",
	"-c": "", "--show-coalesce": "", "-l": "", "--show-channels": "", "-m": "", "--module-info": "",
	"-T": "", "--show-time-stamping": "", "-P": "", "--show-permaddr": "",
	"-A": "", "--pause": "", "-s": "", "--change": "", "-K": "", "--features": "",
}

// ethtool is `ethtool -a IF`, `ethtool -S IF` and `ethtool --get-tunable IF pfc-prevention-tout`.
func (h *Host) ethtool(args []string) (string, string, int) {
	if len(args) == 0 {
		return "", ethtoolBadArgs, 1
	}
	mode, known := ethtoolModes[args[0]]
	switch {
	case !known && strings.HasPrefix(args[0], "-"), len(args) == 1 && strings.HasPrefix(args[0], "-"):
		return "", ethtoolBadArgs, 1
	case mode == "pause" && len(args) == 2:
		return h.renderEthtoolPause(args[1])
	case mode == "stats" && len(args) == 2:
		return h.renderEthtoolStats(args[1])
	case mode == "tunable" && len(args) >= 3:
		return h.renderEthtoolTunable(args[1], args[2:])
	case mode == "pause":
		return "", ethtoolBadArgs, 1 // -a takes the device and nothing more
	}
	return notEmulated(append([]string{"ethtool"}, args...)...)
}

// mlnxQosUsage is optparse's usage line of mlnx_qos (mlnx-tools).
const mlnxQosUsage = "Usage: mlnx_qos -i <interface> [options]\n"

// mlnxQos is `mlnx_qos -i IF` (--interface IF, --interface=IF): the port's QoS report.
// mlnx_qos is Python optparse; any other option sets something, which the lab never does.
func (h *Host) mlnxQos(args []string) (string, string, int) {
	ifname := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-i" || a == "--interface":
			if i+1 == len(args) {
				return "", mlnxQosUsage + "\nmlnx_qos: error: " + a + " option requires an argument\n", 2
			}
			i++
			ifname = args[i]
		case strings.HasPrefix(a, "--interface="):
			ifname = strings.TrimPrefix(a, "--interface=")
		case strings.HasPrefix(a, "-i") && len(a) > 2:
			ifname = a[2:]
		case strings.HasPrefix(a, "-") && mlnxQosOption(a):
			return notEmulated(append([]string{"mlnx_qos"}, args...)...)
		case strings.HasPrefix(a, "-"):
			return "", mlnxQosUsage + "\nmlnx_qos: error: no such option: " + a + "\n", 2
		default:
			return notEmulated(append([]string{"mlnx_qos"}, args...)...)
		}
	}
	if ifname == "" {
		return "Interface name is required\n", "", 1
	}
	return h.renderMlnxQos(ifname)
}

// mlnxQosOption says whether opt is one of mlnx_qos's other options (all of them set QoS).
func mlnxQosOption(opt string) bool {
	name, _, _ := strings.Cut(opt, "=")
	for _, o := range []string{"-f", "--pfc", "-p", "--prio_tc", "-s", "--tsa", "-t", "--tcbw", "-r", "--ratelimit",
		"-d", "--dcbx", "--trust", "--dscp2prio", "--cable_len", "--prio2buffer", "--buffer_size", "-a", "-h", "--help", "--version"} {
		if name == o {
			return true
		}
	}
	return false
}

// ibv_devinfo's options (rdma-core libibverbs/examples/devinfo.c: "d:i:lvh").
const ibvShort = "dilvh"

const ibvUsage = "Usage: ibv_devinfo             print the ca attributes\n"

// ibvDevinfo is `ibv_devinfo -v` (verbose, every device and port).
func (h *Host) ibvDevinfo(args []string) (string, string, int) {
	g := parseGNU(args)
	if r := g.badShort(ibvShort); r != 0 {
		return ibvUsage, "ibv_devinfo: invalid option -- '" + string(r) + "'\n", 255
	}
	if len(g.long) > 0 || len(g.operands) > 0 || len(g.short) != 1 || g.short[0] != 'v' {
		return notEmulated(append([]string{"ibv_devinfo"}, args...)...)
	}
	return h.renderIbvDevinfo(), "", 0
}
