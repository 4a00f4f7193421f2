package linux

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/topology"
)

// pfcTunable is the ethtool tunable of the mlx5 pause-storm prevention timeout.
const pfcTunable = "pfc-prevention-tout"

// ParsePFCPreventionTout reads `ethtool --get-tunable IF pfc-prevention-tout`: ethtool prints a
// u16 tunable as "pfc-prevention-tout: N" (ethtool.c print_tunable); mlx5 reports the critical
// stall watermark in ms, 0 when prevention is disabled.
func ParsePFCPreventionTout(out string) (int, error) {
	for rest, more := out, true; more; {
		var line string
		line, rest, more = nextLine(rest)
		v, ok := strings.CutPrefix(strings.TrimSpace(line), pfcTunable+":")
		if !ok {
			continue
		}
		n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 16)
		if err != nil {
			return 0, fmt.Errorf("%s value %q is not a number of ms", pfcTunable, strings.TrimSpace(v))
		}
		return int(n), nil
	}
	return 0, fmt.Errorf("no %s line", pfcTunable)
}

// tunableRefused is ethtool's stderr when the ETHTOOL_GTUNABLE ioctl fails (do_gtunable prints
// no errno). GTUNABLE needs no privilege and the netdev was just listed, so the failure is the
// driver's: no get_tunable op (not mlx5), mlx5 without the stall_detect capability
// (-EOPNOTSUPP), or a kernel that does not know the tunable.
const tunableRefused = pfcTunable + ": Cannot get tunable"

// noStormTimeout is why a refusing NIC has no timeout: only a switch watchdog ends its storm.
const noStormTimeout = "the driver has no " + pfcTunable + " tunable (ethtool: Cannot get tunable): only the switch watchdog ends a storm"

// collectStormTimeout reads the NIC's pause-storm prevention timeout, a read-only ETHTOOL_GTUNABLE.
// A NIC that refuses the tunable does not support it; a read that fails otherwise (the
// session, ethtool missing or too old to name it, output not understood) leaves it unknown.
func (w *portWork) collectStormTimeout(ctx context.Context, e executor) {
	r := w.run(ctx, e, CmdPFCTunable)
	src := topology.Evidence{Command: r.cmd, Excerpt: strings.TrimSpace(r.out.Stdout)}
	if r.ran() && !r.ok() && strings.Contains(r.out.Stderr, tunableRefused) {
		src.Excerpt = strings.TrimSpace(r.out.Stderr)
		w.p.PFCPreventionMs = topology.Unsupported(0, noStormTimeout, src)
		return
	}
	if !r.ok() {
		src.Error = r.failure()
		w.p.PFCPreventionMs = topology.Unknown[int](src)
		return
	}
	ms, err := ParsePFCPreventionTout(r.out.Stdout)
	if err != nil {
		src.Error = err.Error()
		w.p.PFCPreventionMs = topology.Unknown[int](src)
		return
	}
	w.p.PFCPreventionMs = topology.Known(ms, src)
}
