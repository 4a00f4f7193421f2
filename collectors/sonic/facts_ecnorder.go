package sonic

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/topology"
)

// PortECNOrder reads what orders ECN before PFC on a port: per queue whose WRED_PROFILE marks
// green packets, its green_min/max_threshold; per lossless priority group, its profile's
// reserved buffer (size - xoff, never below 0: a profile whose xoff lives in the shared
// headroom pool is counted with no reserve, the cautious reading), dynamic_th or static_th and
// the size of its pool. With the dynamic model the buffer manager sizes profiles and pools.
func PortECNOrder(db *ConfigDB, port string) topology.Fact[topology.ECNOrder] {
	cfg := topology.Evidence{Command: CmdRunningConfig}
	if _, ok := db.Row("PORT", port); !ok {
		return failed[topology.ECNOrder](fmt.Errorf("%s is not in the CONFIG_DB PORT table", port))
	}
	if dynamicModel(db) {
		cfg.Excerpt = "DEVICE_METADATA|localhost buffer_model=dynamic"
		return topology.Known(topology.ECNOrder{Computed: "dynamic buffer model: buffermgrd sizes the lossless " +
			"profiles and pools, so the PFC trigger is not in CONFIG_DB"}, cfg)
	}
	o := topology.ECNOrder{Queues: map[int]topology.ECNThreshold{}, PGs: map[int]topology.PFCThreshold{}}
	var stack [1024]byte // the excerpt, line by line
	ex, last := stack[:0], -1
	qkeys, err := db.sortedPortKeys("QUEUE", port)
	if err != nil {
		return failed[topology.ECNOrder](fmt.Errorf("QUEUE table: %w", err))
	}
	for _, k := range qkeys {
		name := Ref(k.row["wred_profile"])
		prof, ok := db.Row("WRED_PROFILE", name)
		if name == "" || !ok || !greenMarking[strings.TrimSpace(prof["ecn"])] {
			continue
		}
		t := topology.ECNThreshold{Profile: name, KMin: atoi64(prof["green_min_threshold"]), KMax: atoi64(prof["green_max_threshold"])}
		for _, q := range k.ids {
			o.Queues[q] = t
		}
		ex, last = appendLine(ex, last, "QUEUE|", k.key, " -> ", sharedValue(db, sharedKey{siteWREDThresholds, name, 0}, func() string {
			return excerptRow(db, "WRED_PROFILE", name, "green_min_threshold", "green_max_threshold")
		}))
	}
	var pgBuf [8]losslessPG
	pgs, _, err := losslessProfiles(db, port, pgBuf[:0])
	if err != nil {
		return failed[topology.ECNOrder](err)
	}
	for _, l := range pgs {
		r := l.row
		t := topology.PFCThreshold{Profile: l.name, Reserved: max(atoi64(r["size"])-atoi64(r["xoff"]), 0), Pool: Ref(r["pool"])}
		if v, ok := r["dynamic_th"]; ok {
			th, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				return failed[topology.ECNOrder](fmt.Errorf("BUFFER_PROFILE|%s dynamic_th %q is not a number", l.name, v))
			}
			t.DynamicTh, t.HasDynamicTh = th, true
			size, ok := db.Field("BUFFER_POOL", t.Pool, "size")
			if !ok || atoi64(size) <= 0 {
				return failed[topology.ECNOrder](fmt.Errorf("BUFFER_POOL|%s has no size, so the dynamic threshold of %s cannot be resolved", t.Pool, l.name))
			}
			t.PoolSize = atoi64(size)
			ex, last = appendLine(ex, last, sharedValue(db, sharedKey{sitePoolSize, t.Pool, 0}, func() string {
				return excerptRow(db, "BUFFER_POOL", t.Pool, "size", "mode")
			}))
		} else {
			t.StaticTh = atoi64(r["static_th"])
		}
		o.PGs[l.pg] = t
		ex, last = appendLine(ex, last, sharedValue(db, sharedKey{siteProfileECNOrder, l.name, l.pg}, func() string {
			return excerptRow(db, "BUFFER_PROFILE", l.name, "size", "xoff", "dynamic_th", "static_th", "pool") + " (PG " + strconv.Itoa(l.pg) + ")"
		}))
	}
	cfg.Excerpt = string(ex)
	return topology.Known(o, cfg)
}

// appendLine appends a line of parts to the lines in b, joined by "\n", and returns where it
// starts; last is where the last line starts (-1: none). A line equal to the last is
// dropped, as strings.Join(slices.Compact(lines), "\n") would: the excerpt in one buffer.
func appendLine(b []byte, last int, parts ...string) ([]byte, int) {
	end := len(b)
	if last >= 0 {
		b = append(b, '\n')
	}
	start := len(b)
	for _, p := range parts {
		b = append(b, p...)
	}
	if last >= 0 && string(b[start:]) == string(b[last:end]) {
		return b[:end], last
	}
	return b, start
}

func atoi64(s string) int64 {
	if len(s) <= 18 { // "" or plain digits, most: no ParseInt (nor its error, an allocation)
		var n int64
		i := 0
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			n = n*10 + int64(s[i]-'0')
		}
		if i == len(s) {
			return n
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return 0
	}
	return n
}
