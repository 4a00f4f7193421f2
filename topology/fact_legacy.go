package topology

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// A snapshot written before facts had a status carries `"known": true|false` in each fact
// instead. Fact has no UnmarshalJSON of its own for it: a method on the type made the
// decoder scan every fact's bytes three times (find its end, validate, decode), which was
// a third of reading a snapshot. Readers instead pass a device's JSON through
// legacyFacts, which only rewrites the rare device that has a "known" key.

// legacyFacts returns a device's JSON with every object that says "known": true and has no
// (or a null) "status" given "status": "known", as a fact of that age reads; other devices
// come back as they are. No other object of a device has a "status" key, so the rewrite
// reaches facts alone.
func legacyFacts(b []byte) ([]byte, error) {
	if !hasKnownKey(b) {
		return b, nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber() // numbers go back out digit for digit
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	upgradeKnown(v)
	out, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("rewriting facts without a status: %w", err)
	}
	return out, nil
}

// hasKnownKey reports whether b may hold an object key "known": the word in quotes followed
// by a colon. Inside a JSON string a quote is escaped, so a string value cannot look like it.
func hasKnownKey(b []byte) bool {
	const key = `"known"`
	for {
		i := bytes.Index(b, []byte(key))
		if i < 0 {
			return false
		}
		b = b[i+len(key):]
		if rest := bytes.TrimLeft(b, " \t\r\n"); len(rest) > 0 && rest[0] == ':' {
			return true
		}
	}
}

func upgradeKnown(v any) {
	switch x := v.(type) {
	case map[string]any:
		if known, ok := x["known"].(bool); ok && known && x["status"] == nil {
			x["status"] = FactKnown.String()
		}
		for _, e := range x {
			upgradeKnown(e)
		}
	case []any:
		for _, e := range x {
			upgradeKnown(e)
		}
	}
}
