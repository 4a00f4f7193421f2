package sonic

import (
	"fmt"
	"math/rand/v2"
	"slices"
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

// appendLine joins as strings.Join(slices.Compact(lines), "\n").
func TestAppendLineIsJoinCompact(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	words := []string{"", "a", "b", "ab", "\n"}
	for range 5000 {
		lines := make([]string, r.IntN(6))
		var b []byte
		last := -1
		for i := range lines {
			lines[i] = words[r.IntN(len(words))]
			b, last = appendLine(b, last, lines[i][:len(lines[i])/2], lines[i][len(lines[i])/2:])
		}
		if got, want := string(b), strings.Join(slices.Compact(lines), "\n"); got != want {
			t.Fatalf("%q: %q, want %q", lines, got, want)
		}
	}
}
