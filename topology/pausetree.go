package topology

import (
	"fmt"
	"sort"
	"strings"
)

// PausePort is one port's PFC pause frames on the RoCE priority during a transfer: RX frames
// it received (its egress was paused), TX frames it sent (it paused its upstream neighbour).
type PausePort struct {
	Port string // "leaf1:Ethernet0"
	// Known is false when the port's counters hold no PFC pause counter (EOS and NX-OS may
	// give only 802.3x pause): the port is blind, neither culprit nor victim.
	Known          bool
	RX, TX         int64
	RXName, TXName string
	// PerPriority is false when the counters are per-port PFC totals (EOS pfc_*_frames):
	// they include every priority, so they can exceed the peer's per-priority count.
	PerPriority bool
	// TXDurationUS is how long the port paused its neighbour, in microseconds; -1 unknown.
	TXDurationUS int64
}

// PauseOrigin is a culprit: the most downstream port that sent pause while its own egress on
// the path received none, so the congestion starts there.
type PauseOrigin struct {
	Port   string // the port that sent pause
	Egress string // the port the data left by, that could not drain ("" on the receiving host)
	Host   bool   // the receiving host's NIC (a slow receiver)
	Frames int64
	// DurationUS is the paused time the port reported; -1 when it reports none.
	DurationUS int64
}

// PauseMismatch is a link whose two ends disagree on the pause frames between them.
type PauseMismatch struct {
	Sender, Receiver       string // ports: the one that sent pause, the one that received it
	SentName, ReceivedName string
	Sent, Received         int64
}

func (m PauseMismatch) String() string {
	return fmt.Sprintf("%s %s +%d vs %s %s +%d", m.Sender, m.SentName, m.Sent, m.Receiver, m.ReceivedName, m.Received)
}

// PauseTree is how PFC pause spread along the paths of one transfer.
type PauseTree struct {
	Paused     bool          // some port sent or received pause on the priority
	Culprits   []PauseOrigin // one per path that has one, most downstream first, deduplicated
	Victims    []string      // ports upstream of a culprit that received pause, sorted
	Mismatches []PauseMismatch
	Blind      []string // path ports sampled without a PFC pause counter, sorted
}

// PauseTolerance is how many frames two ends of a link may differ by (the two samples are not
// taken at the same instant), or 2% of the larger count when that is more.
func PauseTolerance(a, b int64) int64 { return max(2, max(a, b)/50) }

// PauseCounts reads a port's PFC pause counters on priority prio, whatever the platform names
// them: pfc_{rx,tx}_pause_prio<N> (SONiC, Cumulus), {rx,tx}_prio<N>_pause (mlx5 ethtool -S),
// else the per-port PFC totals pfc_{rx,tx}_frames (EOS).
func PauseCounts(h HopCounters, prio int) PausePort {
	p := PausePort{Port: h.Device + ":" + h.Interface, TXDurationUS: -1}
	c := h.CounterDeltas
	pick := func(names ...string) (string, int64, bool) {
		for _, n := range names {
			if v, ok := c[n]; ok {
				return n, v, true
			}
		}
		return "", 0, false
	}
	rxN, rx, okRX := pick(fmt.Sprintf("pfc_rx_pause_prio%d", prio), fmt.Sprintf("rx_prio%d_pause", prio))
	txN, tx, okTX := pick(fmt.Sprintf("pfc_tx_pause_prio%d", prio), fmt.Sprintf("tx_prio%d_pause", prio))
	p.PerPriority = okRX || okTX
	if !p.PerPriority {
		rxN, rx, okRX = pick("pfc_rx_frames")
		txN, tx, okTX = pick("pfc_tx_frames")
	}
	p.Known = okRX || okTX
	p.RX, p.TX, p.RXName, p.TXName = rx, tx, rxN, txN
	if _, d, ok := pick(fmt.Sprintf("pfc_tx_pause_duration_prio%d", prio), fmt.Sprintf("tx_prio%d_pause_duration", prio)); ok {
		p.TXDurationUS = d
	}
	return p
}

// IsPauseCounter says whether a counter counts pause frames or paused time; the transfer keeps
// such counters even when they did not move, so "no pause" is told apart from "not read".
func IsPauseCounter(name string) bool {
	n := strings.ToLower(name)
	return strings.Contains(n, "pause") || n == "pfc_rx_frames" || n == "pfc_tx_frames"
}

// stage is one device on a path in the direction of the data: it receives on in, sends on out
// ("" at the hosts' ends).
type stage struct{ in, out string }

// pathStages lists the devices of one path from the client to the server.
func pathStages(x Transfer, hops []Hop) []stage {
	out := []stage{{out: stageKey(x.From.Device, x.From.Interface)}}
	for _, h := range hops {
		out = append(out, stage{in: stageKey(h.Device, h.InPort), out: stageKey(h.Device, h.OutPort)})
	}
	return append(out, stage{in: stageKey(x.To.Device, x.To.Interface)})
}

// stageKey is the port's key, "" for none (the hosts' missing side).
func stageKey(dev, port string) string {
	if port == "" {
		return ""
	}
	return portKey(PortRef{Device: dev, Interface: port})
}

// BuildPauseTree walks the PFC pauses of a transfer on priority prio along each of its paths
// (C10's culprit/victim walk) and reconciles both ends of every link between the hops (C11).
func BuildPauseTree(x Transfer, prio int) PauseTree {
	ports := map[string]PausePort{}
	for _, h := range x.Hops {
		ports[stageKey(h.Device, h.Interface)] = PauseCounts(h, prio)
	}
	paths := x.Paths
	if len(paths) == 0 {
		paths = [][]Hop{nil} // the two hosts cabled back to back
	}
	var t PauseTree
	seenLink, seenCulprit, victims, blind := map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, hops := range paths {
		st := pathStages(x, hops)
		for i := 1; i < len(st); i++ {
			up, down := st[i-1].out, st[i].in
			if key := up + ">" + down; !seenLink[key] {
				seenLink[key] = true
				t.Mismatches = append(t.Mismatches, reconcile(ports, up, down)...)
			}
		}
		for _, s := range st {
			for _, k := range []string{s.in, s.out} {
				if p, ok := ports[k]; ok && !p.Known {
					blind[p.Port] = true
				} else if ok && (p.RX > 0 || p.TX > 0) {
					t.Paused = true
				}
			}
		}
		at, origin := culprit(ports, st)
		if at < 0 {
			continue
		}
		if !seenCulprit[origin.Port] {
			seenCulprit[origin.Port] = true
			t.Culprits = append(t.Culprits, origin)
		}
		for _, s := range st[:at] {
			if p, ok := ports[s.out]; ok && p.Known && p.RX > 0 {
				victims[p.Port] = true
			}
		}
	}
	t.Victims, t.Blind = sortedKeys(victims), sortedKeys(blind)
	return t
}

// culprit is the most downstream stage that sent pause upstream while its egress on the path
// received none; a stage whose egress is blind cannot be told apart from a victim, so it is
// passed over. at is the stage's index, -1 when no stage qualifies.
func culprit(ports map[string]PausePort, st []stage) (at int, o PauseOrigin) {
	for i := len(st) - 1; i >= 0; i-- {
		in, ok := ports[st[i].in]
		if !ok || !in.Known || in.TX <= 0 {
			continue
		}
		if st[i].out != "" {
			out, ok := ports[st[i].out]
			if !ok || !out.Known || out.RX > 0 {
				continue
			}
		}
		o = PauseOrigin{Port: in.Port, Host: st[i].out == "", Frames: in.TX, DurationUS: in.TXDurationUS}
		if p, ok := ports[st[i].out]; ok {
			o.Egress = p.Port
		}
		return i, o
	}
	return -1, o
}

// reconcile compares the pause frames each end of the link up->down sent with those the other
// end received, both ways. A per-port total may exceed the peer's per-priority count (other
// priorities), never fall short of it.
func reconcile(ports map[string]PausePort, up, down string) []PauseMismatch {
	a, okA := ports[up]
	b, okB := ports[down]
	if !okA || !okB || !a.Known || !b.Known {
		return nil
	}
	var out []PauseMismatch
	for _, d := range [][2]PausePort{{b, a}, {a, b}} { // down pauses up (the data direction), then the reverse
		s, r := d[0], d[1]
		if s.TXName == "" || r.RXName == "" {
			continue
		}
		diff := s.TX - r.RX
		switch {
		case s.PerPriority == r.PerPriority && abs(diff) <= PauseTolerance(s.TX, r.RX):
			continue
		case !s.PerPriority && r.PerPriority && diff >= -PauseTolerance(s.TX, r.RX):
			continue // the sender's total holds the peer's priority and others
		case s.PerPriority && !r.PerPriority && diff <= PauseTolerance(s.TX, r.RX):
			continue
		}
		out = append(out, PauseMismatch{Sender: s.Port, Receiver: r.Port, SentName: s.TXName, ReceivedName: r.RXName,
			Sent: s.TX, Received: r.RX})
	}
	return out
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
