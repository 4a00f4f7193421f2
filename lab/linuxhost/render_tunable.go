package linuxhost

import "fmt"

// defaultPFCPreventionMs is the mlx5 pause-storm prevention timeout a lab NIC reports: a
// tuned host's `ethtool --set-tunable IF pfc-prevention-tout 100` (the driver's "auto" value),
// so the NIC ends a storm before a 200 ms switch watchdog acts. MLX5DriverDefaultPFCPreventionMs
// is what an untuned NIC reports.
const defaultPFCPreventionMs = 100

// MLX5DriverDefaultPFCPreventionMs is the mlx5 driver's own timeout, its largest critical
// stall watermark (MLX5E_PFC_PREVEN_TOUT_MAX_MSEC).
const MLX5DriverDefaultPFCPreventionMs = 8000

// renderEthtoolTunable is `ethtool --get-tunable IF TUNABLE...` for the one tunable the lab
// emulates: ethtool prints a u16 tunable as "NAME: VALUE" (print_tunable), and a get the
// driver refuses as "NAME: Cannot get tunable" on stderr, returning the ioctl's -1 (exit 255).
// Another tunable name is a bad command line, as ethtool's table has only its own names.
func (h *Host) renderEthtoolTunable(ifname string, names []string) (string, string, int) {
	out := ""
	for _, name := range names {
		if name != "pfc-prevention-tout" {
			return out, ethtoolBadArgs, 1
		}
		n := h.Netdev(ifname)
		if n == nil || n.Eth == nil {
			return out, name + ": Cannot get tunable\n", 255
		}
		out += fmt.Sprintf("%s: %d\n", name, n.Eth.PFCPreventionMs)
	}
	return out, "", 0
}
