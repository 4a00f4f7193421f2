package sonic

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/lab/nosfmt"
	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// model and version are the state's, or the defaults.
func model(sw *switchstate.Switch) string   { return cmp.Or(sw.Model, DefaultModel) }
func version(sw *switchstate.Switch) string { return cmp.Or(sw.Version, DefaultVersion) }

// portNumber is N of EthernetN, the first lane of the port by SONiC's naming; -1 otherwise.
func portNumber(name string) int {
	n, err := strconv.Atoi(strings.TrimPrefix(name, "Ethernet"))
	if err != nil || !strings.HasPrefix(name, "Ethernet") || n < 0 {
		return -1
	}
	return n
}

// list renders the set members of a per-priority array as SONiC writes them ("3,4"; "" for
// none).
func list(set [8]bool) string { return nosfmt.List(set, "") }

// pfcEnable is the port's pfc_enable: the priorities it sends PFC for. With pfc_asym on, the
// port honours received PFC on every priority (see asymmetric).
func pfcEnable(p *switchstate.Port) [8]bool {
	if asymmetric(p) {
		return p.PFCTX
	}
	var out [8]bool
	for i := range out {
		out[i] = p.PFCRX[i] || p.PFCTX[i]
	}
	return out
}

// asymmetric is SONiC's pfc_asym: the port honours PFC on every priority and sends it on
// fewer.
func asymmetric(p *switchstate.Port) bool {
	return p.PFCRX == [8]bool{true, true, true, true, true, true, true, true} && p.PFCTX != p.PFCRX
}

// watchdog is the port's pfcwd_sw_enable: the watched priorities that have PFC. SONiC's
// watchdog only guards PFC queues.
func watchdog(p *switchstate.Port) [8]bool {
	en := pfcEnable(p)
	var out [8]bool
	for i := range out {
		out[i] = p.Watchdog[i] && en[i]
	}
	return out
}

// counter reads a state counter; absent reads 0.
func counter(p *switchstate.Port, name string) int64 { return p.Counters[name] }

// withCommas is how sonic-utilities prints counters (format_number_with_comma).
func withCommas(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// neighborLabel is the port description an operator gives a cabled port ("gpu01:ens1f0np0").
func neighborLabel(p *switchstate.Port) string {
	if p.Neighbor == nil {
		return ""
	}
	return fmt.Sprintf("%s:%s", p.Neighbor.SystemName, p.Neighbor.PortName())
}
