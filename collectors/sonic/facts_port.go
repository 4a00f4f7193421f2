package sonic

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/collectors/internal/numrange"
	"github.com/roceaudit/roceaudit/topology"
)

// DefaultMTU is what portmgrd gives a port whose PORT entry has no mtu field
// (sonic-swss cfgmgr/portmgr.cpp DEFAULT_MTU_STR).
const DefaultMTU = 9100

// excerptRow renders chosen fields of one key as evidence: `PORT|Ethernet0: mtu="9216"`.
// Absent fields are left out; with no field present it says so.
func excerptRow(db *ConfigDB, table, key string, fields ...string) string {
	var stack [128]byte
	return string(appendExcerptRow(stack[:0], db, table, key, fields...))
}

// appendExcerptRow appends excerptRow's text to b: one buffer, one string for an excerpt of
// several rows (the fields' strings and their joins were a tenth of a SONiC leaf's
// allocations).
func appendExcerptRow(b []byte, db *ConfigDB, table, key string, fields ...string) []byte {
	b = append(append(append(b, table...), '|'), key...)
	row, ok := db.Row(table, key)
	if !ok {
		return append(b, ": (no such key)"...)
	}
	b = append(b, ": "...)
	n := len(b)
	for _, f := range fields {
		if v, ok := row[f]; ok {
			if len(b) > n {
				b = append(b, ' ')
			}
			b = append(append(b, f...), '=')
			b = strconv.AppendQuote(b, v) // %q, without fmt: per field per port
		}
	}
	if len(b) == n {
		b = append(b, "(no "...)
		for i, f := range fields {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = append(b, f...)
		}
		b = append(b, ')')
	}
	return b
}

// PortMTU is PORT|<port>.mtu, a frame-class MTU as SONiC configures it (68..9216).
func PortMTU(db *ConfigDB, port string) (topology.MTU, string, error) {
	row, ok := db.Row("PORT", port)
	if !ok {
		return topology.MTU{}, "", fmt.Errorf("%s is not in the CONFIG_DB PORT table", port)
	}
	v, ok := row["mtu"]
	if !ok {
		m := topology.MTU{Configured: DefaultMTU, Kind: "frame", Normalized: DefaultMTU}
		return m, fmt.Sprintf("PORT|%s: no mtu field, portmgrd default %d", port, DefaultMTU), nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n <= 0 {
		return topology.MTU{}, "", fmt.Errorf("PORT|%s mtu %q is not a positive number", port, v)
	}
	return topology.MTU{Configured: n, Kind: "frame", Normalized: n}, excerptRow(db, "PORT", port, "mtu"), nil
}

// PortAliases is PORT|<port>.alias, the front-panel name lldpmgrd gives lldpd as the port's
// LLDP port ID (subtype local), so neighbours name the port by it ("etp1", "hundredGigE1/1").
// None when the port is not in PORT, has no alias, or its alias is its name.
func PortAliases(db *ConfigDB, port string) []string {
	a, ok := db.Field("PORT", port, "alias")
	if a = strings.TrimSpace(a); !ok || a == "" || a == port {
		return nil
	}
	return []string{a}
}

// PortSpeed is PORT|<port>.speed, the configured speed in Mb/s (sonic-port.yang), in Gb/s. A
// port without the field has no speed to report: an error, never a guessed default.
func PortSpeed(db *ConfigDB, port string) (float64, string, error) {
	row, ok := db.Row("PORT", port)
	if !ok {
		return 0, "", fmt.Errorf("%s is not in the CONFIG_DB PORT table", port)
	}
	v, ok := row["speed"]
	if !ok {
		return 0, "", fmt.Errorf("PORT|%s has no speed field", port)
	}
	mbps, err := strconv.ParseUint(strings.TrimSpace(v), 10, 32)
	if err != nil || mbps == 0 {
		return 0, "", fmt.Errorf("PORT|%s speed %q is not a positive number of Mb/s", port, v)
	}
	var stack [64]byte
	return float64(mbps) / 1000, string(append(appendExcerptRow(stack[:0], db, "PORT", port, "speed"), " (Mb/s)"...)), nil
}

// qosMap finds a map bound to a port: PORT_QOS_MAP|<port>.<field>, or, when global is true,
// PORT_QOS_MAP|global.<field>. It returns the referenced name (reference form stripped) and
// where it was bound.
func qosMap(db *ConfigDB, port, field string, global bool) (name, boundAt string) {
	if v, ok := db.Field("PORT_QOS_MAP", port, field); ok && Ref(v) != "" {
		return Ref(v), port
	}
	if global {
		if v, ok := db.Field("PORT_QOS_MAP", "global", field); ok && Ref(v) != "" {
			return Ref(v), "global"
		}
	}
	return "", ""
}

// PortTrust is what the port classifies by: SONiC trusts DSCP when a dscp_to_tc_map is
// bound and 802.1p when a dot1p_to_tc_map is.
func PortTrust(db *ConfigDB, port string) (string, string, error) {
	if _, ok := db.Row("PORT", port); !ok {
		return "", "", fmt.Errorf("%s is not in the CONFIG_DB PORT table", port)
	}
	dscp, at := qosMap(db, port, "dscp_to_tc_map", true)
	dot1p, _ := qosMap(db, port, "dot1p_to_tc_map", false)
	var stack [128]byte
	b := appendExcerptRow(stack[:0], db, "PORT_QOS_MAP", port, "dscp_to_tc_map", "dot1p_to_tc_map")
	if at == "global" {
		b = appendExcerptRow(append(b, "; "...), db, "PORT_QOS_MAP", "global", "dscp_to_tc_map")
	}
	excerpt := string(b)
	switch {
	case dscp != "" && dot1p != "":
		return "both", excerpt, nil
	case dscp != "":
		return "dscp", excerpt, nil
	case dot1p != "":
		return "pcp", excerpt, nil
	}
	return "none", excerpt, nil
}

// PortDSCPToTC is the DSCP_TO_TC_MAP bound to the port (or globally); empty when none is.
func PortDSCPToTC(db *ConfigDB, port string) (map[int]int, string, error) {
	if _, ok := db.Row("PORT", port); !ok {
		return nil, "", fmt.Errorf("%s is not in the CONFIG_DB PORT table", port)
	}
	name, at := qosMap(db, port, "dscp_to_tc_map", true)
	if name == "" {
		return map[int]int{}, fmt.Sprintf("PORT_QOS_MAP|%s binds no dscp_to_tc_map (no DSCP classification)", port), nil
	}
	m, grouped, err := db.groupedNumberMap("DSCP_TO_TC_MAP", name, 63)
	if err != nil {
		return nil, "", fmt.Errorf("PORT_QOS_MAP|%s dscp_to_tc_map: %w", at, err)
	}
	return m, "DSCP_TO_TC_MAP|" + name + " (bound at PORT_QOS_MAP|" + at + "): " + grouped, nil
}

// PortTCToQueue is the TC_TO_QUEUE_MAP bound to the port; TC n -> queue n when none is.
func PortTCToQueue(db *ConfigDB, port string) (map[int]int, string, error) {
	if _, ok := db.Row("PORT", port); !ok {
		return nil, "", fmt.Errorf("%s is not in the CONFIG_DB PORT table", port)
	}
	name, at := qosMap(db, port, "tc_to_queue_map", false)
	if name == "" {
		id := map[int]int{}
		for tc := 0; tc < 8; tc++ {
			id[tc] = tc
		}
		return id, fmt.Sprintf("PORT_QOS_MAP|%s binds no tc_to_queue_map: default TC n -> queue n", port), nil
	}
	m, grouped, err := db.groupedNumberMap("TC_TO_QUEUE_MAP", name, 15)
	if err != nil {
		return nil, "", fmt.Errorf("PORT_QOS_MAP|%s tc_to_queue_map: %w", at, err)
	}
	return m, "TC_TO_QUEUE_MAP|" + name + " (bound at PORT_QOS_MAP|" + at + "): " + grouped, nil
}

// groupedNumberMap is numberMap and groupByValue of it, each map read once per switch when db
// is indexed (Collect): every port binds the same few maps, a DSCP map is 64 pairs to parse
// and a grouping to sort and format. The map is the caller's own copy.
func (db *ConfigDB) groupedNumberMap(table, name string, maxKey int) (map[int]int, string, error) {
	read := func() groupedMap {
		m, err := numberMap(db, table, name, maxKey)
		if err != nil {
			return groupedMap{err: err}
		}
		return groupedMap{m: m, grouped: groupByValue(m)}
	}
	if db.keys == nil {
		g := read()
		return g.m, g.grouped, g.err
	}
	key := groupedMapKey{table, name, maxKey}
	db.keys.mu.Lock()
	g, ok := db.keys.maps[key]
	db.keys.mu.Unlock()
	if !ok {
		g = read()
		db.keys.mu.Lock()
		db.keys.maps[key] = g
		db.keys.mu.Unlock()
	}
	return maps.Clone(g.m), g.grouped, g.err
}

type groupedMapKey struct {
	table, name string
	maxKey      int
}

type groupedMap struct {
	m       map[int]int
	grouped string
	err     error
}

// numberMap reads a number -> number map table entry (DSCP_TO_TC_MAP, TC_TO_QUEUE_MAP).
func numberMap(db *ConfigDB, table, name string, maxKey int) (map[int]int, error) {
	row, ok := db.Row(table, name)
	if !ok {
		return nil, fmt.Errorf("refers to %s|%s, which is not in CONFIG_DB", table, name)
	}
	m := map[int]int{}
	for k, v := range row {
		from, err1 := strconv.Atoi(strings.TrimSpace(k))
		to, err2 := strconv.Atoi(strings.TrimSpace(v))
		if err1 != nil || err2 != nil || from < 0 || from > maxKey || to < 0 {
			return nil, fmt.Errorf("%s|%s has entry %q: %q, expected numbers (key 0..%d)", table, name, k, v, maxKey)
		}
		m[from] = to
	}
	return m, nil
}

// groupByValue renders a map compactly, keys grouped by value: "0-25,27->0; 26->3".
func groupByValue(m map[int]int) string {
	byVal := map[int][]int{}
	var vals []int
	for k, v := range m {
		if _, ok := byVal[v]; !ok {
			vals = append(vals, v)
		}
		byVal[v] = append(byVal[v], k)
	}
	slices.Sort(vals)
	var parts []string
	for _, v := range vals {
		parts = append(parts, ranges(byVal[v])+"->"+strconv.Itoa(v))
	}
	if len(parts) == 0 {
		return "(empty)"
	}
	return strings.Join(parts, "; ")
}

// ranges sorts ns in place and renders it as "0-25,27,29-30".
func ranges(ns []int) string {
	slices.Sort(ns)
	return numrange.Format(ns)
}
