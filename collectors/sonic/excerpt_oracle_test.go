package sonic

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// oldExcerptRow is excerptRow as it was before appendExcerptRow: the oracle.
func oldExcerptRow(db *ConfigDB, table, key string, fields ...string) string {
	row, ok := db.Row(table, key)
	if !ok {
		return fmt.Sprintf("%s|%s: (no such key)", table, key)
	}
	var parts []string
	for _, f := range fields {
		if v, ok := row[f]; ok {
			parts = append(parts, f+"="+strconv.Quote(v))
		}
	}
	if len(parts) == 0 {
		return fmt.Sprintf("%s|%s: (no %s)", table, key, strings.Join(fields, ", "))
	}
	return table + "|" + key + ": " + strings.Join(parts, " ")
}

func FuzzExcerptRowAsBefore(f *testing.F) {
	f.Add("PORT", "Ethernet0", "mtu", "9216", "mtu", "speed", "")
	f.Add("T", "k", "a\"b", "\xff\n", "x", "a\"b", "x")
	f.Add("T", "k", "", "", "", "", "")
	f.Fuzz(func(t *testing.T, table, key, field, value, f1, f2, f3 string) {
		db := &ConfigDB{Tables: map[string]map[string]map[string]string{table: {key: {field: value, "mtu": "1"}}}}
		for _, k := range []string{key, key + "x"} {
			for _, fields := range [][]string{nil, {f1}, {f1, f2}, {f1, f2, f3, "mtu"}} {
				if got, want := excerptRow(db, table, k, fields...), oldExcerptRow(db, table, k, fields...); got != want {
					t.Fatalf("excerptRow(%q, %q, %q) = %q, want %q", table, k, fields, got, want)
				}
			}
		}
	})
}
