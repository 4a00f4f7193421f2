package sonic

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// model and version are the state's, or the defaults.
func model(sw *switchstate.Switch) string {
	if sw.Model != "" {
		return sw.Model
	}
	return DefaultModel
}

func version(sw *switchstate.Switch) string {
	if sw.Version != "" {
		return sw.Version
	}
	return DefaultVersion
}

// sortedPorts is the ports in SONiC order (Ethernet4 before Ethernet12).
func sortedPorts(sw *switchstate.Switch) []*switchstate.Port {
	ps := append([]*switchstate.Port(nil), sw.Ports...)
	sort.SliceStable(ps, func(i, j int) bool { return naturalLess(ps[i].Name, ps[j].Name) })
	return ps
}

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
func list(set [8]bool) string {
	var out []string
	for i, on := range set {
		if on {
			out = append(out, strconv.Itoa(i))
		}
	}
	return strings.Join(out, ",")
}

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
	return fmt.Sprintf("%s:%s", p.Neighbor.SystemName, p.Neighbor.PortID)
}

// naturalLess orders names the way natsort does: digit runs compare as numbers.
func naturalLess(a, b string) bool {
	for a != "" && b != "" {
		if isDigit(a[0]) && isDigit(b[0]) {
			na, ra := leadingNumber(a)
			nb, rb := leadingNumber(b)
			if na != nb {
				return na < nb
			}
			a, b = ra, rb
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func leadingNumber(s string) (int, string) {
	n, i := 0, 0
	for ; i < len(s) && isDigit(s[i]); i++ {
		if n < 1<<40 {
			n = n*10 + int(s[i]-'0')
		}
	}
	return n, s[i:]
}
