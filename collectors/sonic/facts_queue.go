package sonic

import (
	"fmt"
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
	keys, inOrder, err := db.sortedPortKeys("QUEUE", port)
	if err != nil {
		return nil, "", fmt.Errorf("QUEUE table: %w", err)
	}
	m := map[int]bool{}
	for q := 0; q < 8; q++ {
		m[q] = false
	}
	var ex bindings
	for _, key := range inOrder {
		ref, ok := db.Tables["QUEUE"][key]["wred_profile"]
		if !ok || Ref(ref) == "" {
			continue
		}
		name := Ref(ref)
		prof, ok := db.Row("WRED_PROFILE", name)
		if !ok {
			return nil, "", fmt.Errorf("QUEUE|%s wred_profile refers to WRED_PROFILE|%s, which is not in CONFIG_DB", key, name)
		}
		mode := strings.TrimSpace(prof["ecn"])
		if mode == "" {
			mode = "ecn_none"
		}
		for _, q := range keys[key] {
			m[q] = greenMarking[mode]
		}
		ex.add(keys[key], "WRED_PROFILE|"+name+" ecn="+strconv.Quote(mode))
	}
	if len(ex) == 0 {
		return m, fmt.Sprintf("no QUEUE|%s|<q> entry binds a wred_profile", port), nil
	}
	return m, ex.String("QUEUE|" + port + " wred_profile: "), nil
}

// PortScheduler is the scheduler type of each queue that binds one: SCHEDULER[QUEUE|<port>|<q>
// .scheduler].type lower-cased ("strict", "dwrr", "wrr"; the YANG default is WRR). A queue
// without a scheduler is absent: it runs the platform default, which is not strict.
func PortScheduler(db *ConfigDB, port string) (map[int]string, string, error) {
	if _, ok := db.Row("PORT", port); !ok {
		return nil, "", fmt.Errorf("%s is not in the CONFIG_DB PORT table", port)
	}
	keys, inOrder, err := db.sortedPortKeys("QUEUE", port)
	if err != nil {
		return nil, "", fmt.Errorf("QUEUE table: %w", err)
	}
	m := map[int]string{}
	var ex bindings
	for _, key := range inOrder {
		ref, ok := db.Tables["QUEUE"][key]["scheduler"]
		if !ok || Ref(ref) == "" {
			continue
		}
		name := Ref(ref)
		sched, ok := db.Row("SCHEDULER", name)
		if !ok {
			return nil, "", fmt.Errorf("QUEUE|%s scheduler refers to SCHEDULER|%s, which is not in CONFIG_DB", key, name)
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
			return nil, "", fmt.Errorf("SCHEDULER|%s type %q is not STRICT, DWRR or WRR", name, sched["type"])
		}
		for _, q := range keys[key] {
			m[q] = typ
		}
		ex.add(keys[key], "SCHEDULER|"+name+" "+shown)
	}
	if len(ex) == 0 {
		return m, fmt.Sprintf("no QUEUE|%s|<q> entry binds a scheduler", port), nil
	}
	return m, ex.String("QUEUE|" + port + " scheduler: "), nil
}

// bindings groups queues by what they are bound to, for a compact excerpt:
// "queues 0-2,4-5 -> SCHEDULER|scheduler.0 type=\"DWRR\"; queue 6 -> ...".
type bindings []struct {
	ids    []int
	target string
}

func (b *bindings) add(ids []int, target string) {
	for i := range *b {
		if (*b)[i].target == target {
			(*b)[i].ids = append((*b)[i].ids, ids...)
			return
		}
	}
	*b = append(*b, struct {
		ids    []int
		target string
	}{append([]int(nil), ids...), target})
}

func (b bindings) String(prefix string) string {
	var parts []string
	for _, x := range b {
		word := "queue "
		if len(x.ids) > 1 {
			word = "queues "
		}
		parts = append(parts, word+ranges(x.ids)+" -> "+x.target)
	}
	return prefix + strings.Join(parts, "; ")
}
