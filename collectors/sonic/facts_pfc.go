package sonic

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/topology"
)

// PortPFC is PORT_QOS_MAP|<port>.pfc_enable. With PORT|<port>.pfc_asym "on", orchagent sets
// the port to honour received PFC on every priority and send it only on pfc_enable, so RX is
// 0..7 and TX is pfc_enable.
func PortPFC(db *ConfigDB, port string) (topology.SwitchPFC, string, error) {
	if _, ok := db.Row("PORT", port); !ok {
		return topology.SwitchPFC{}, "", fmt.Errorf("%s is not in the CONFIG_DB PORT table", port)
	}
	v, _ := db.Field("PORT_QOS_MAP", port, "pfc_enable")
	prios, err := priorities(v)
	if err != nil {
		return topology.SwitchPFC{}, "", fmt.Errorf("PORT_QOS_MAP|%s pfc_enable: %w", port, err)
	}
	asym, _ := db.Field("PORT", port, "pfc_asym")
	var stack [128]byte
	excerpt := string(appendExcerptRow(append(appendExcerptRow(stack[:0], db, "PORT_QOS_MAP", port, "pfc_enable"), "; "...),
		db, "PORT", port, "pfc_asym"))
	pfc := topology.SwitchPFC{RX: prios, TX: slices.Clone(prios)}
	switch strings.ToLower(strings.TrimSpace(asym)) {
	case "on":
		pfc.RX = []int{0, 1, 2, 3, 4, 5, 6, 7}
	case "", "off":
	default:
		return topology.SwitchPFC{}, "", fmt.Errorf("PORT|%s pfc_asym %q is neither on nor off", port, asym)
	}
	return pfc, excerpt, nil
}

// PortPFCWatchdog says, for each priority 0..7, whether the PFC watchdog guards it: PFC_WD|<port>
// exists, PFC is on for the priority, the priority is in pfcwd_sw_enable (all of pfc_enable
// when the field is absent, as db_migrator 3.0.4 assumes) and the PFCWD flex counter is not
// disabled (its polling is what detects storms).
func PortPFCWatchdog(db *ConfigDB, port string) (map[int]bool, string, error) {
	if _, ok := db.Row("PORT", port); !ok {
		return nil, "", fmt.Errorf("%s is not in the CONFIG_DB PORT table", port)
	}
	pfcField, _ := db.Field("PORT_QOS_MAP", port, "pfc_enable")
	pfc, err := priorityMask(pfcField)
	if err != nil {
		return nil, "", fmt.Errorf("PORT_QOS_MAP|%s pfc_enable: %w", port, err)
	}
	sw := pfc
	swField, hasSW := db.Field("PORT_QOS_MAP", port, "pfcwd_sw_enable")
	if hasSW {
		if sw, err = priorityMask(swField); err != nil {
			return nil, "", fmt.Errorf("PORT_QOS_MAP|%s pfcwd_sw_enable: %w", port, err)
		}
	}
	_, hasWD := db.Row("PFC_WD", port)
	flex, hasFlex := db.Field("FLEX_COUNTER_TABLE", "PFCWD", "FLEX_COUNTER_STATUS")
	polling := !strings.EqualFold(strings.TrimSpace(flex), "disable")

	var stack [256]byte // the excerpt's three parts, joined by "; "
	ex := stack[:0]
	if hasWD {
		ex = appendExcerptRow(ex, db, "PFC_WD", port, "action", "detection_time", "restoration_time")
	} else {
		ex = append(append(append(ex, "PFC_WD|"...), port...), ": (no such key, watchdog not started)"...)
	}
	ex = append(ex, "; "...)
	if hasSW {
		ex = appendExcerptRow(ex, db, "PORT_QOS_MAP", port, "pfc_enable", "pfcwd_sw_enable")
	} else {
		ex = append(appendExcerptRow(ex, db, "PORT_QOS_MAP", port, "pfc_enable"), " (no pfcwd_sw_enable: all PFC priorities)"...)
	}
	if hasFlex {
		ex = appendExcerptRow(append(ex, "; "...), db, "FLEX_COUNTER_TABLE", "PFCWD", "FLEX_COUNTER_STATUS")
	}

	m := make(map[int]bool, 8)
	for p := 0; p < 8; p++ {
		m[p] = hasWD && polling && pfc&(1<<p) != 0 && sw&(1<<p) != 0
	}
	return m, string(ex), nil
}

// priorityMask is priorities as a bit per priority, without the slices when s is one.
func priorityMask(s string) (uint8, error) {
	if n, ok := singleID(s); ok && n >= 0 && n <= 7 {
		return 1 << n, nil
	}
	ps, err := priorities(s)
	var m uint8
	for _, p := range ps {
		m |= 1 << p
	}
	return m, err
}

// PortWatchdogTimers reads PFC_WD|<port> detection_time and restoration_time (ms; the
// sonic-pfcwd YANG model allows 100..5000 and 100..60000) and action. A port with no PFC_WD
// row has no watchdog running: zero timers, which PortPFCWatchdog reports as off.
func PortWatchdogTimers(db *ConfigDB, port string) (topology.WatchdogTimers, string, error) {
	row, ok := db.Row("PFC_WD", port)
	if !ok {
		return topology.WatchdogTimers{}, fmt.Sprintf("PFC_WD|%s: (no such key, watchdog not started)", port), nil
	}
	ms := func(field string, required bool) (int, error) {
		v, has := row[field]
		if !has && !required {
			return 0, nil
		}
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n <= 0 {
			return 0, fmt.Errorf("PFC_WD|%s %s %q is not a positive number of ms", port, field, v)
		}
		return n, nil
	}
	det, err := ms("detection_time", true)
	if err != nil {
		return topology.WatchdogTimers{}, "", err
	}
	rest, err := ms("restoration_time", false)
	if err != nil {
		return topology.WatchdogTimers{}, "", err
	}
	t := topology.WatchdogTimers{DetectionMs: det, RestorationMs: rest, Action: row["action"]}
	return t, excerptRow(db, "PFC_WD", port, "action", "detection_time", "restoration_time"), nil
}
