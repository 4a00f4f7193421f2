package collectors

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
)

// redactJSON redacts a JSON document (SONiC's CONFIG_DB) in place, keeping its layout: a
// value under a field that names a secret is replaced, and so are the keys of a table of
// SNMP communities (CONFIG_DB keys them by the community itself: "SNMP_COMMUNITY":
// {"public": {...}}, or "SNMP_COMMUNITY|public" in the flat form). ok is false when s is not
// JSON, so the caller falls back to the line rule.
func redactJSON(s string) (string, bool) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var stack []jsonFrame
	var spans [][3]int // start, end, kind (0 value, 1 key, 2 flat community key, 3+i texts[i])
	var texts []string
	prev := 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", false
		}
		end := int(dec.InputOffset())
		parentSecret := len(stack) > 0 && stack[len(stack)-1].secret
		switch t := tok.(type) {
		case json.Delim:
			if t == '{' || t == '[' {
				f := jsonFrame{object: t == '{', wantKey: t == '{', secret: parentSecret}
				if n := len(stack); n > 0 && stack[n-1].object {
					k := stack[n-1].key
					f.secret = f.secret || isSecretWord(k)
					f.community = strings.Contains(strings.ToUpper(k), "COMMUNITY")
				}
				stack = append(stack, f)
			} else {
				stack = stack[:len(stack)-1]
				valueDone(stack)
			}
		case string:
			if len(stack) == 0 {
				return "", false // a second top-level value: not one JSON document
			}
			start := prev + strings.IndexByte(s[prev:end], '"')
			top := &stack[len(stack)-1]
			switch {
			case top.object && top.wantKey:
				top.key, top.wantKey = t, false
				if top.community {
					spans = append(spans, [3]int{start, end, 1})
				} else if strings.HasPrefix(strings.ToUpper(t), "SNMP_COMMUNITY|") {
					spans = append(spans, [3]int{start, end, 2})
				}
			default:
				switch {
				case top.secret || (top.object && isSecretWord(top.key)):
					spans = append(spans, [3]int{start, end, 0})
				case mayHoldSecret(t):
					// A configuration inside a string (SONiC's "bgpraw", FRR's own config text).
					if red := redactLines(t); red != t {
						texts = append(texts, red)
						spans = append(spans, [3]int{start, end, 3 + len(texts) - 1})
					}
				}
				valueDone(stack)
			}
		default: // number, bool, null
			if len(stack) > 0 {
				top := stack[len(stack)-1]
				if _, isNum := t.(json.Number); isNum && (top.secret || (top.object && isSecretWord(top.key))) {
					start := prev
					for start < end && strings.ContainsRune(" \t\r\n,:", rune(s[start])) {
						start++
					}
					spans = append(spans, [3]int{start, end, 0})
				}
				valueDone(stack)
			}
		}
		prev = end
	}
	if len(spans) == 0 {
		return s, true
	}
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		b.WriteString(s[last:sp[0]])
		switch {
		case sp[2] >= 3:
			b.WriteString(jsonString(texts[sp[2]-3]))
		case sp[2] == 2:
			b.WriteString(jsonString("SNMP_COMMUNITY|" + Redacted))
		default:
			b.WriteString(jsonString(Redacted))
		}
		last = sp[1]
	}
	b.WriteString(s[last:])
	return b.String(), true
}

// jsonFrame is one open object or array.
type jsonFrame struct {
	object    bool
	wantKey   bool
	key       string // the current key, in an object
	secret    bool   // everything below is secret
	community bool   // the keys of this object are community names
}

// valueDone notes that the innermost object's value is complete: a key comes next.
func valueDone(stack []jsonFrame) {
	if n := len(stack); n > 0 && stack[n-1].object {
		stack[n-1].wantKey = true
	}
}

// jsonString encodes s as a JSON string literal (no HTML escaping, unlike json.Marshal).
func jsonString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}
