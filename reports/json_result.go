package reports

import (
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

const hexDigits = "0123456789abcdef"

// appendJSONString quotes s as encoding/json does with HTML escaping off: \" \\ \b \f \n \r
// \t, other control bytes as \u00XX, U+2028 and U+2029 escaped, invalid UTF-8 as \ufffd.
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
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
