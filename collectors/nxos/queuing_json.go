package nxos

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// parseQueuingJSON reads TABLE_module.ROW_module.TABLE_queuing_interface.ROW_queuing_interface
// (the Egress rows, by if_name_str) -> TABLE_qosgrp_egress_stats.ROW_qosgrp_egress_stats
// (eq-qosgrp) -> TABLE_qosgrp_egress_stats_entry.ROW_qosgrp_egress_stats_entry; every ROW_*
// may be an object when it holds one row.
//
// The reply (500 KB on a 64-port leaf) is scanned in place (scanQueuingJSON); what the scan
// declines is decoded once into a generic tree and walked: decoding each ROW_* level from a
// json.RawMessage of the one above scanned the whole text once per level and was nine times
// slower. Numbers stay json.Number (counters pass 2^53). fastQueuingJSON, tried first, reads
// the compact layout NX-OS prints.
func parseQueuingJSON(out string) (map[string]QueueCounters, error) {
	if res, ok := fastQueuingJSON(out); ok {
		return res, nil
	}
	if res, ok := scanQueuingJSON(out); ok {
		return res, nil
	}
	return decodeQueuingJSON(out)
}

// decodeQueuingJSON is parseQueuingJSON by the generic tree: the reference of the scan, and
// what reads (or rejects, with its error) whatever the scan declines.
func decodeQueuingJSON(out string) (map[string]QueueCounters, error) {
	doc, err := decodeTree(out)
	if err != nil {
		return nil, fmt.Errorf("%s: not JSON: %w", CmdQueuingJSON, err)
	}
	// The NX-API envelope {"output": {"body": ...}}, when present; over SSH the body is bare.
	if env, err := member(doc, "output"); err == nil && env != nil {
		if b := env["body"]; b != nil {
			doc = b
		}
	}
	top, err := member(doc, "TABLE_module")
	var mods []any
	if err == nil {
		mods, err = rowsOf(top, "ROW_module")
	}
	if err != nil || len(mods) == 0 {
		return nil, fmt.Errorf("%s: no TABLE_module.ROW_module in the output (%v)", CmdQueuingJSON, err)
	}
	res := map[string]QueueCounters{}
	for _, m := range mods {
		ifs, err := tableRows(m, "TABLE_queuing_interface", "ROW_queuing_interface")
		if err != nil {
			return nil, fmt.Errorf("%s: ROW_queuing_interface: %w", CmdQueuingJSON, err)
		}
		for _, qi := range ifs {
			dir, err1 := field(qi, "dir")
			name, err2 := field(qi, "if_name_str")
			if err := errors.Join(err1, err2); err != nil {
				return nil, fmt.Errorf("%s: ROW_queuing_interface: %w", CmdQueuingJSON, err)
			}
			if !strings.EqualFold(dir, "Egress") {
				continue
			}
			name = strings.Clone(strings.TrimSpace(name)) // the tree's strings share out
			if name == "" {
				return nil, fmt.Errorf("%s: an Egress row has no if_name_str", CmdQueuingJSON)
			}
			c, err := groupCounters(qi)
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %w", CmdQueuingJSON, name, err)
			}
			res[name] = c
		}
	}
	if len(res) == 0 {
		return nil, fmt.Errorf("%s: no Egress queuing row in the output", CmdQueuingJSON)
	}
	return res, nil
}

func groupCounters(qi any) (QueueCounters, error) {
	groups, err := tableRows(qi, "TABLE_qosgrp_egress_stats", "ROW_qosgrp_egress_stats")
	if err != nil {
		return nil, fmt.Errorf("ROW_qosgrp_egress_stats: %w", err)
	}
	c := QueueCounters{}
	for _, g := range groups {
		gm, _ := g.(map[string]any)
		id, err := number(gm["eq-qosgrp"])
		if err != nil || !id.Set {
			continue // CONTROL QOS GROUP, SPAN QOS GROUP: not a data queue
		}
		if id.V < 0 || id.V > 7 {
			return nil, fmt.Errorf("eq-qosgrp %d is not a qos-group 0-7", id.V)
		}
		stats, err := tableRows(g, "TABLE_qosgrp_egress_stats_entry", "ROW_qosgrp_egress_stats_entry")
		if err != nil {
			return nil, fmt.Errorf("qos-group %d: ROW_qosgrp_egress_stats_entry: %w", id.V, err)
		}
		for _, s := range stats {
			kind, err1 := field(s, "eq-stat-type")
			units, err2 := field(s, "eq-stat-units")
			var uc num
			if err1 == nil && err2 == nil {
				sm, _ := s.(map[string]any)
				uc, err2 = number(sm["eq-uc-stat-value"])
			}
			if err := errors.Join(err1, err2); err != nil {
				return nil, fmt.Errorf("qos-group %d: ROW_qosgrp_egress_stats_entry: %w", id.V, err)
			}
			if pattern, ok := queueStat(kind, units); ok && uc.Set {
				c[queueCounter(pattern, id.V)] = uc.V
			}
		}
	}
	return c, nil
}

// member is the object under key of an object; nil when absent or null. A value that is
// not an object where one is expected is an error, as it was for a struct.
func member(v any, key string) (map[string]any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		if v == nil {
			return nil, nil
		}
		return nil, fmt.Errorf("expected an object, got %T", v)
	}
	switch c := m[key].(type) {
	case nil:
		return nil, nil
	case map[string]any:
		return c, nil
	default:
		return nil, fmt.Errorf("%s: expected an object, got %T", key, c)
	}
}

// tableRows is the rows of v[table][row].
func tableRows(v any, table, row string) ([]any, error) {
	t, err := member(v, table)
	if err != nil {
		return nil, err
	}
	return rowsOf(t, row)
}

// rowsOf reads a ROW_* member, which NX-OS prints as an object for one row and as an array
// for several. A missing member is zero rows; each row must be an object.
func rowsOf(t map[string]any, row string) ([]any, error) {
	var rows []any
	switch r := t[row].(type) {
	case nil:
		return nil, nil
	case []any:
		rows = r
	case map[string]any:
		rows = []any{r}
	default:
		return nil, fmt.Errorf("%s: expected an object or an array, got %T", row, r)
	}
	for _, x := range rows {
		if _, ok := x.(map[string]any); !ok && x != nil {
			return nil, fmt.Errorf("%s: a row is %T, not an object", row, x)
		}
	}
	return rows, nil
}

// field is a string member of a row ("" when absent or null).
func field(row any, key string) (string, error) {
	m, _ := row.(map[string]any)
	switch v := m[key].(type) {
	case nil:
		return "", nil
	case string:
		return v, nil
	default:
		return "", fmt.Errorf("%s: expected a string, got %T", key, v)
	}
}

// number reads a value as num does: a JSON number or a string of digits; null or absent is
// unset.
func number(v any) (num, error) {
	var s string
	switch x := v.(type) {
	case nil:
		return num{}, nil
	case json.Number:
		s = string(x)
	case string:
		if x == "null" {
			return num{}, nil
		}
		s = x
	default:
		return num{}, fmt.Errorf("%v is not a whole number", x)
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return num{}, fmt.Errorf("%q is not a whole number", s)
	}
	return num{V: n, Set: true}, nil
}
