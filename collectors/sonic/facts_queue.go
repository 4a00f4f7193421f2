package sonic

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// greenMarking are the WRED_PROFILE ecn modes that mark green packets, i.e. ordinary
// unpoliced RoCE traffic.
var greenMarking = map[string]bool{"ecn_all": true, "ecn_green": true, "ecn_green_yellow": true, "ecn_green_red": true}

// PortECN says, for queues 0..7 and any other queue the port configures, whether ECN marks
// there: QUEUE|<port>|<q>.wred_profile names a WRED_PROFILE whose ecn marks green packets.
func PortECN(db *ConfigDB, port string) (map[int]bool, string, error) {
	if _, ok := db.Row("PORT", port); !ok {
		return nil, "", fmt.Errorf("%s is not in the CONFIG_DB PORT table", port)
	}
	keys, err := db.sortedPortKeys("QUEUE", port)
	if err != nil {
		return nil, "", fmt.Errorf("QUEUE table: %w", err)
	}
	m := make(map[int]bool, 8)
	for q := 0; q < 8; q++ {
		m[q] = false
	}
	var targets [4]string
	var ids [16]boundID
	ex := bindings{targets[:0], ids[:0]}
	// each profile's lookup and excerpt once per port, not per queue
	var profBuf [4]struct {
		name, target string
		marks        bool
	}
	profs := profBuf[:0]
	for _, k := range keys {
		key := k.key
		ref, ok := k.row["wred_profile"]
		if !ok {
			continue
		}
		name := Ref(ref)
		if name == "" {
			continue
		}
		i := 0
		for i < len(profs) && profs[i].name != name {
			i++
		}
		if i == len(profs) {
			p := sharedValue(db, sharedKey{siteWREDTarget, name, 0}, func() queueTarget {
				prof, ok := db.Row("WRED_PROFILE", name)
				if !ok {
					return queueTarget{}
				}
				mode := strings.TrimSpace(prof["ecn"])
				if mode == "" {
					mode = "ecn_none"
				}
				return queueTarget{found: true, target: "WRED_PROFILE|" + name + " ecn=" + strconv.Quote(mode), marks: greenMarking[mode]}
			})
			if !p.found {
				return nil, "", fmt.Errorf("QUEUE|%s wred_profile refers to WRED_PROFILE|%s, which is not in CONFIG_DB", key, name)
			}
			profs = append(profs, struct {
				name, target string
				marks        bool
			}{name, p.target, p.marks})
		}
		for _, q := range k.ids {
			m[q] = profs[i].marks
		}
		ex = ex.add(k.ids, profs[i].target)
	}
	if len(ex.targets) == 0 {
		return m, fmt.Sprintf("no QUEUE|%s|<q> entry binds a wred_profile", port), nil
	}
	return m, ex.String("QUEUE|", port, " wred_profile: "), nil
}

// PortScheduler is the scheduler type of each queue that binds one: SCHEDULER[QUEUE|<port>|<q>
// .scheduler].type lower-cased ("strict", "dwrr", "wrr"; the YANG default is WRR). A queue
// without a scheduler is absent: it runs the platform default, which is not strict.
func PortScheduler(db *ConfigDB, port string) (map[int]string, string, error) {
	if _, ok := db.Row("PORT", port); !ok {
		return nil, "", fmt.Errorf("%s is not in the CONFIG_DB PORT table", port)
	}
	keys, err := db.sortedPortKeys("QUEUE", port)
	if err != nil {
		return nil, "", fmt.Errorf("QUEUE table: %w", err)
	}
	m := make(map[int]string, 8)
	var targets [4]string
	var ids [16]boundID
	ex := bindings{targets[:0], ids[:0]}
	// each scheduler's lookup and excerpt once per port, not per queue
	var schedBuf [4]struct{ name, typ, target string }
	scheds := schedBuf[:0]
	for _, k := range keys {
		key := k.key
		ref, ok := k.row["scheduler"]
		if !ok {
			continue
		}
		name := Ref(ref)
		if name == "" {
			continue
		}
		i := 0
		for i < len(scheds) && scheds[i].name != name {
			i++
		}
		if i == len(scheds) {
			s := sharedValue(db, sharedKey{siteSchedulerTarget, name, 0}, func() queueTarget {
				sched, ok := db.Row("SCHEDULER", name)
				if !ok {
					return queueTarget{}
				}
				typ := strings.ToLower(strings.TrimSpace(sched["type"]))
				shown := "type=" + strconv.Quote(sched["type"])
				if w := sched["weight"]; w != "" {
					shown += " weight=" + strconv.Quote(w) // a weighted CNP queue's evidence says how much
				}
				if typ == "" {
					typ, shown = "wrr", "no type (default WRR)"
				}
				switch typ {
				case "strict", "dwrr", "wrr":
				default:
					return queueTarget{found: true, err: fmt.Errorf("SCHEDULER|%s type %q is not STRICT, DWRR or WRR", name, sched["type"])}
				}
				return queueTarget{found: true, typ: typ, target: "SCHEDULER|" + name + " " + shown}
			})
			if !s.found {
				return nil, "", fmt.Errorf("QUEUE|%s scheduler refers to SCHEDULER|%s, which is not in CONFIG_DB", key, name)
			}
			if s.err != nil {
				return nil, "", s.err
			}
			scheds = append(scheds, struct{ name, typ, target string }{name, s.typ, s.target})
		}
		for _, q := range k.ids {
			m[q] = scheds[i].typ
		}
		ex = ex.add(k.ids, scheds[i].target)
	}
	if len(ex.targets) == 0 {
		return m, fmt.Sprintf("no QUEUE|%s|<q> entry binds a scheduler", port), nil
	}
	return m, ex.String("QUEUE|", port, " scheduler: "), nil
}

// queueTarget is what a queue's WRED_PROFILE or SCHEDULER says, read once per switch.
type queueTarget struct {
	found       bool
	typ, target string
	marks       bool
	err         error
}

// bindings groups queues by what they are bound to, for a compact excerpt:
// "queues 0-2,4-5 -> SCHEDULER|scheduler.0 type=\"DWRR\"; queue 6 -> ...". Its slices start
// on the caller's stack (newBindings): a slice of ids per target was 6% of a SONiC leaf's
// allocations.
type bindings struct {
	targets []string
	ids     []boundID // in the order added
}

type boundID struct{ target, id int }

// add returns b with ids bound to target (by value: a pointer receiver moved the caller's
// arrays to the heap).
func (b bindings) add(ids []int, target string) bindings {
	t := slices.Index(b.targets, target)
	if t < 0 {
		t = len(b.targets)
		b.targets = append(b.targets, target)
	}
	for _, id := range ids {
		b.ids = append(b.ids, boundID{t, id})
	}
	return b
}

// String is prefix's pieces and the bindings, built in one buffer (the parts and their
// join were as many allocations again, per port and fact).
func (b *bindings) String(prefix ...string) string {
	var stack [256]byte
	var scratch [32]int
	buf := stack[:0]
	for _, p := range prefix {
		buf = append(buf, p...)
	}
	for t, target := range b.targets {
		if t > 0 {
			buf = append(buf, "; "...)
		}
		ids := scratch[:0]
		for _, x := range b.ids {
			if x.target == t {
				ids = append(ids, x.id)
			}
		}
		if len(ids) > 1 {
			buf = append(buf, "queues "...)
		} else {
			buf = append(buf, "queue "...)
		}
		slices.Sort(ids)
		buf = appendRanges(buf, ids)
		buf = append(append(buf, " -> "...), target...)
	}
	return string(buf)
}

// appendRanges appends numrange.Format(ns) (ns sorted): "0-25,27,29-30".
func appendRanges(buf []byte, ns []int) []byte {
	for i := 0; i < len(ns); {
		j := i
		for j+1 < len(ns) && ns[j+1] == ns[j]+1 {
			j++
		}
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = strconv.AppendInt(buf, int64(ns[i]), 10)
		if j > i {
			buf = strconv.AppendInt(append(buf, '-'), int64(ns[j]), 10)
		}
		i = j + 1
	}
	return buf
}
