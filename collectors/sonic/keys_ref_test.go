package sonic

import (
	"fmt"
	"strings"
)

// The key look-ups the collector made before the per-switch index (keyIndex,
// sortedPortKeys): the oracles the index is compared with.

// portKeys finds the keys of a "<ports>|<ids>" table (QUEUE, BUFFER_PG) that apply to port,
// and the ids each one names. <ports> may list several ports ("Ethernet0,Ethernet4", an old
// template form); <ids> may be a number, a range ("3-4") or a list ("0,1,5-6").
func portKeys(table map[string]map[string]string, port string) (map[string][]int, error) {
	out := map[string][]int{}
	for key := range table {
		i := strings.LastIndex(key, "|")
		if i < 0 {
			continue
		}
		if !listHas(key[:i], port) {
			continue
		}
		ids, err := parseIDs(key[i+1:])
		if err != nil {
			return nil, fmt.Errorf("key %q: %w", key, err)
		}
		out[key] = ids
	}
	return out, nil
}

// portKeys is portKeys(db.Tables[table], port), from the index when there is one.
func (db *ConfigDB) portKeys(table, port string) (map[string][]int, error) {
	keys, err := db.sortedPortKeys(table, port)
	if err != nil {
		return nil, err
	}
	out := make(map[string][]int, len(keys))
	for _, k := range keys {
		out[k.key] = k.ids
	}
	return out, nil
}
