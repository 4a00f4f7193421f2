package reports

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/roceaudit/roceaudit/checks"
)

// appendResultJSON appends res as newJSONEncoder(prefix "    ") encodes it, without its
// trailing newline. A 10,000-device report holds a million results, and encoding/json spent
// ~1.8 s of the JSON report on them (reflection, then a second pass to indent); the bytes are
// the same (FuzzResultJSON compares the two).
func appendResultJSON(b []byte, res *checks.Result) []byte {
	const field = "\n      "
	b = append(b, '{')
	b = appendField(b, field, "check", res.Check, false)
	b = appendField(b, ","+field, "status", string(res.Status), false)
	b = appendField(b, ","+field, "severity", string(res.Severity), false)
	b = appendField(b, ","+field, "device", res.Device, true)
	b = appendField(b, ","+field, "interface", res.Interface, true)
	b = appendField(b, ","+field, "peer", res.Peer, true)
	b = appendField(b, ","+field, "path", res.Path, true)
	b = appendField(b, ","+field, "expected", res.Expected, true)
	b = appendField(b, ","+field, "actual", res.Actual, true)
	b = appendField(b, ","+field, "message", res.Message, true)
	if ev := res.Evidence; ev != nil {
		b = append(b, ","+field+`"evidence": `...)
		if ev.Command == "" && ev.Excerpt == "" && ev.Error == "" {
			b = append(b, "{}"...)
		} else {
			const inner = "\n        "
			b = append(b, '{')
			sep := inner
			for _, kv := range [...][2]string{{"command", ev.Command}, {"excerpt", ev.Excerpt}, {"error", ev.Error}} {
				if kv[1] != "" {
					b = appendField(b, sep, kv[0], kv[1], false)
					sep = "," + inner
				}
			}
			b = append(b, field+"}"...)
		}
	}
	b = appendField(b, ","+field, "remediation", res.Remediation, true)
	return append(b, "\n    }"...)
}

// appendField appends sep, "key": and the quoted value, unless omitEmpty and it is empty.
func appendField(b []byte, sep, key, value string, omitEmpty bool) []byte {
	if omitEmpty && value == "" {
		return b
	}
	b = append(b, sep...)
	b = append(b, '"')
	b = append(b, key...)
	b = append(b, `": `...)
	return appendJSONString(b, value)
}

// jsonEscapes are how this toolchain's encoding/json (HTML escaping off) writes what it
// escapes: each control byte, the quote and backslash, U+2028 and U+2029, and a byte of
// invalid UTF-8 (today \ufffd; json/v2 writes U+FFFD itself). Asked of the encoder once,
// so appendJSONString cannot drift from it.
var jsonEscapes = askEncoder()

type escapes struct {
	ctl                               [0x20]string
	quote, backslash, ls, ps, invalid string
}

func askEncoder() escapes {
	enc := func(s string) string {
		var b bytes.Buffer
		en := json.NewEncoder(&b)
		en.SetEscapeHTML(false)
		if err := en.Encode(s); err != nil {
			return `\ufffd` // an encoder that refuses it; the result tests would say so
		}
		out := b.Bytes()
		return string(out[1 : len(out)-2]) // the quotes and Encode's newline
	}
	var e escapes
	for c := range e.ctl {
		e.ctl[c] = enc(string(rune(c)))
	}
	e.quote, e.backslash, e.ls, e.ps, e.invalid = enc(`"`), enc(`\`), enc("\u2028"), enc("\u2029"), enc("\xff")
	return e
}

// appendJSONString quotes s as encoding/json does with HTML escaping off (jsonEscapes).
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"':
				b = append(b, jsonEscapes.quote...)
			case '\\':
				b = append(b, jsonEscapes.backslash...)
			default:
				b = append(b, jsonEscapes.ctl[c]...)
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		var esc string
		switch {
		case r == utf8.RuneError && size == 1:
			esc = jsonEscapes.invalid
		case r == '\u2028':
			esc = jsonEscapes.ls
		case r == '\u2029':
			esc = jsonEscapes.ps
		default:
			i += size
			continue
		}
		b = append(b, s[start:i]...)
		b = append(b, esc...)
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
