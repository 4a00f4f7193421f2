package sonic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/roceaudit/roceaudit/collectors/internal/jsonscan"
)

// ConfigDB is CONFIG_DB as `show runningconfiguration all` prints it: table -> key -> field
// -> value. Every value is a string, as in redis; list values are joined with ",".
type ConfigDB struct {
	Tables map[string]map[string]map[string]string
	// Namespaces lists the multi-ASIC namespaces that were merged (empty on single-ASIC).
	Namespaces []string

	keys *keyIndex // see indexKeys; nil scans
}

var namespaceKey = regexp.MustCompile(`^(localhost|asic[0-9]+)$`)

// tablesWeRead must decode as tables when present; anything else that is not a table (the
// "bgpraw" string) is skipped.
var tablesWeRead = []string{"PORT", "PORT_QOS_MAP", "DSCP_TO_TC_MAP", "DOT1P_TO_TC_MAP",
	"TC_TO_QUEUE_MAP", "QUEUE", "SCHEDULER", "WRED_PROFILE", "PFC_WD", "BUFFER_PG",
	"BUFFER_PROFILE", "FLEX_COUNTER_TABLE", "DEVICE_METADATA"}

// ParseRunningConfig parses `show runningconfiguration all`. On multi-ASIC the top level is
// namespaces (localhost, asic0, ...) and their tables are merged, later namespaces adding
// keys. Output that is not a JSON object of tables, or has no PORT table, is an error.
func ParseRunningConfig(out string) (*ConfigDB, error) {
	if db, ok := scanRunningConfig(out); ok {
		return db, nil
	}
	return decodeRunningConfig(out)
}

// decodeRunningConfig is ParseRunningConfig by encoding/json: the reference of the scan, and
// what reads (or rejects, with its error) whatever the scan declines.
func decodeRunningConfig(out string) (*ConfigDB, error) {
	var top map[string]json.RawMessage
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&top); err != nil {
		return nil, fmt.Errorf("%s: output is not a JSON object: %w", CmdRunningConfig, err)
	}
	if top == nil {
		return nil, fmt.Errorf("%s: output is JSON null, not CONFIG_DB", CmdRunningConfig)
	}
	db := &ConfigDB{Tables: map[string]map[string]map[string]string{}}
	var namespaces []string
	for k := range top {
		if namespaceKey.MatchString(k) {
			namespaces = append(namespaces, k)
		}
	}
	if len(namespaces) == 0 {
		if err := db.merge("", top); err != nil {
			return nil, err
		}
	} else {
		sort.Strings(namespaces)
		for _, ns := range namespaces {
			var tables map[string]json.RawMessage
			if err := json.Unmarshal(top[ns], &tables); err != nil {
				return nil, fmt.Errorf("%s: namespace %q is not an object of tables: %w", CmdRunningConfig, ns, err)
			}
			if err := db.merge(ns, tables); err != nil {
				return nil, err
			}
		}
		db.Namespaces = namespaces
	}
	if len(db.Tables["PORT"]) == 0 {
		return nil, fmt.Errorf("%s: no PORT table in the output (top-level keys: %s)", CmdRunningConfig, keyList(top))
	}
	return db, nil
}

func (db *ConfigDB) merge(ns string, tables map[string]json.RawMessage) error {
	where := ""
	if ns != "" {
		where = " in namespace " + ns
	}
	for name, raw := range tables {
		var keys map[string]map[string]json.RawMessage
		if err := json.Unmarshal(raw, &keys); err != nil || keys == nil {
			if slices.Contains(tablesWeRead, name) && !bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
				return fmt.Errorf("%s: table %s%s is not an object of keys and fields", CmdRunningConfig, name, where)
			}
			continue
		}
		t := db.Tables[name]
		if t == nil {
			t = map[string]map[string]string{}
			db.Tables[name] = t
		}
		for key, fields := range keys {
			row := t[key]
			if row == nil {
				row = map[string]string{}
				t[key] = row
			}
			for f, v := range fields {
				row[f] = fieldString(v)
			}
		}
	}
	return nil
}

// scanRunningConfig is ParseRunningConfig's fast path for a single-ASIC CONFIG_DB, the
// common case (a 240-port leaf's is ~440 KB): the document scanned in place, without
// encoding/json's maps of raw messages nor two decodes of every field (a third of a SONiC
// leaf's collection). It declines (and the decoder then answers, errors included) what it is
// not sure to read exactly as the decoder does: namespaces, a table whose keys are not all
// objects, a table we read that is not one, a key given twice in a table, a key with an
// escape, no PORT table.
func scanRunningConfig(out string) (*ConfigDB, bool) {
	sc := jsonscan.New(out)
	top := map[string]string{} // as the decoder's map of raw messages: a repeated table's last
	ok := sc.Object(func(name string) bool {
		raw, ok := sc.Raw()
		top[name] = raw
		return ok
	})
	// no End: the decoder reads the first value and leaves whatever follows
	if !ok {
		return nil, false
	}
	db := &ConfigDB{Tables: make(map[string]map[string]map[string]string, len(top))}
	var fields [][2]string // a row's, reused
	for name, raw := range top {
		if namespaceKey.MatchString(name) {
			return nil, false
		}
		if !strings.HasPrefix(raw, "{") { // not a table (the "bgpraw" string): as merge does
			if slices.Contains(tablesWeRead, name) && raw != "null" {
				return nil, false
			}
			continue
		}
		// Sized up front: a key is an object, so a table has fewer keys than "{"s (QUEUE's
		// 1,984 grown a key at a time were a tenth of the scan).
		t := make(map[string]map[string]string, min(strings.Count(raw, "{")-1, len(raw)/8))
		tsc := jsonscan.New(raw)
		ok := tsc.Object(func(key string) bool {
			if tsc.Peek() != '{' {
				return false
			}
			// the fields first, then the row's map at its size: a PORT row's nine
			// outgrew a small map
			fields = fields[:0]
			ok := tsc.Object(func(field string) bool {
				if tsc.Peek() == '"' {
					if v, ok := tsc.Str(); ok {
						fields = append(fields, [2]string{field, v})
						return true
					}
				}
				raw, ok := tsc.Raw()
				fields = append(fields, [2]string{field, fieldString(json.RawMessage(raw))})
				return ok
			})
			row := make(map[string]string, len(fields))
			for _, f := range fields {
				row[f[0]] = f[1] // a repeated field: the last one, as the decoder keeps
			}
			n := len(t)
			t[key] = row
			return ok && len(t) > n // a key given twice declines, found by the insert
		})
		if !ok {
			return nil, false
		}
		db.Tables[name] = t
	}
	if len(db.Tables["PORT"]) == 0 {
		return nil, false
	}
	return db, true
}

// fieldString renders a field value: strings as they are, lists of strings joined with ",",
// anything else as its JSON text.
func fieldString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		return strings.Join(list, ",")
	}
	return string(bytes.TrimSpace(raw))
}

// Row returns one key of one table.
func (db *ConfigDB) Row(table, key string) (map[string]string, bool) {
	r, ok := db.Tables[table][key]
	return r, ok
}

// Field returns one field of one key.
func (db *ConfigDB) Field(table, key, field string) (string, bool) {
	v, ok := db.Tables[table][key][field]
	return v, ok
}

// Ref strips the pre-3.0.3 reference form "[TABLE|name]" to "name"; a bare name is returned
// as it is.
func Ref(v string) string {
	v = strings.TrimSpace(v)
	if strings.HasPrefix(v, "[") && strings.HasSuffix(v, "]") {
		inner := v[1 : len(v)-1]
		if i := strings.Index(inner, "|"); i >= 0 {
			return inner[i+1:]
		}
		return inner
	}
	return v
}

func keyList(m map[string]json.RawMessage) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	if len(ks) > 8 {
		ks = append(ks[:8], "...")
	}
	if len(ks) == 0 {
		return "none"
	}
	return strings.Join(ks, ", ")
}
