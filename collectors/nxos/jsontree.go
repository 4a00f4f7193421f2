package nxos

import (
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"
)

// decodeTree decodes one JSON document into the tree encoding/json makes of it with
// UseNumber (map[string]any, []any, string, json.Number, bool, nil), in one pass: a string
// with neither escape nor invalid UTF-8 (every one NX-OS prints) and every number are
// slices of s, not copies; the rare other strings are decoded by encoding/json itself.
// encoding/json's Decoder scanned the text twice (to find the value's end, then to decode)
// and copied every string (BenchmarkQueuingJSON). FuzzDecodeTreeAgreesWithEncodingJSON holds
// the two to the same trees and the same refusals.
func decodeTree(s string) (any, error) {
	d := treeDecoder{s: s}
	d.space()
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	d.space()
	if d.i != len(s) {
		return nil, errors.New("more than one top-level value")
	}
	return v, nil
}

// maxTreeDepth is encoding/json's nesting limit.
const maxTreeDepth = 10000

type treeDecoder struct {
	s string
	i int
}

func (d *treeDecoder) space() {
	for d.i < len(d.s) {
		switch d.s[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *treeDecoder) fail(what string) error {
	if d.i >= len(d.s) {
		return fmt.Errorf("unexpected end of JSON input, expecting %s", what)
	}
	return fmt.Errorf("invalid character %q at offset %d, expecting %s", d.s[d.i], d.i, what)
}

func (d *treeDecoder) value(depth int) (any, error) {
	if d.i >= len(d.s) {
		return nil, d.fail("a value")
	}
	switch c := d.s[d.i]; {
	case c == '{':
		if depth >= maxTreeDepth {
			return nil, errors.New("exceeded max depth")
		}
		return d.object(depth + 1)
	case c == '[':
		if depth >= maxTreeDepth {
			return nil, errors.New("exceeded max depth")
		}
		return d.array(depth + 1)
	case c == '"':
		return d.str()
	case c == '-' || c >= '0' && c <= '9':
		return d.number()
	default:
		for _, lit := range [...]struct {
			text string
			v    any
		}{{"true", true}, {"false", false}, {"null", nil}} {
			if len(d.s)-d.i >= len(lit.text) && d.s[d.i:d.i+len(lit.text)] == lit.text {
				d.i += len(lit.text)
				return lit.v, nil
			}
		}
		return nil, d.fail("a value")
	}
}

func (d *treeDecoder) object(depth int) (any, error) {
	m := make(map[string]any)
	d.i++ // {
	d.space()
	if d.i < len(d.s) && d.s[d.i] == '}' {
		d.i++
		return m, nil
	}
	for d.i < len(d.s) { // each turn consumes one member or returns
		if d.s[d.i] != '"' {
			return nil, d.fail("a member name")
		}
		k, err := d.str()
		if err != nil {
			return nil, err
		}
		d.space()
		if d.i >= len(d.s) || d.s[d.i] != ':' {
			return nil, d.fail("':'")
		}
		d.i++
		d.space()
		v, err := d.value(depth)
		if err != nil {
			return nil, err
		}
		m[k] = v
		closed, err := d.after('}', "a member")
		if err != nil {
			return nil, err
		}
		if closed {
			return m, nil
		}
	}
	return nil, d.fail("a member")
}

func (d *treeDecoder) array(depth int) (any, error) {
	a := make([]any, 0)
	d.i++ // [
	d.space()
	if d.i < len(d.s) && d.s[d.i] == ']' {
		d.i++
		return a, nil
	}
	for d.i < len(d.s) { // each turn consumes one element or returns
		v, err := d.value(depth)
		if err != nil {
			return nil, err
		}
		a = append(a, v)
		closed, err := d.after(']', "an element")
		if err != nil {
			return nil, err
		}
		if closed {
			return a, nil
		}
	}
	return nil, d.fail("an element")
}

// after reads what follows a member or element: a comma (more follow) or closer (closed).
func (d *treeDecoder) after(closer byte, what string) (closed bool, err error) {
	d.space()
	if d.i >= len(d.s) {
		return false, d.fail(what)
	}
	switch d.s[d.i] {
	case ',':
		d.i++
		d.space()
		return false, nil
	case closer:
		d.i++
		return true, nil
	}
	return false, d.fail("',' or '" + string(closer) + "'")
}

// str reads the string at d.i (its opening quote).
func (d *treeDecoder) str() (string, error) {
	start := d.i
	d.i++
	plain, ascii := true, true
	for d.i < len(d.s) {
		c := d.s[d.i]
		switch {
		case c == '"':
			d.i++
			body := d.s[start+1 : d.i-1]
			if plain && (ascii || utf8.ValidString(body)) {
				return body, nil
			}
			var out string // escapes, invalid UTF-8: as encoding/json has them
			if err := json.Unmarshal([]byte(d.s[start:d.i]), &out); err != nil {
				return "", fmt.Errorf("string at offset %d: %w", start, err)
			}
			return out, nil
		case c == '\\':
			plain = false
			d.i += 2 // the escaped byte cannot end the string; encoding/json checks the escape
		case c < 0x20:
			return "", d.fail("no control character in a string")
		default:
			if c >= utf8.RuneSelf {
				ascii = false
			}
			d.i++
		}
	}
	return "", d.fail("the end of a string")
}

// number reads a JSON number (RFC 8259's grammar) as json.Number.
func (d *treeDecoder) number() (any, error) {
	start := d.i
	if d.s[d.i] == '-' {
		d.i++
	}
	switch {
	case d.i < len(d.s) && d.s[d.i] == '0':
		d.i++
	case d.i < len(d.s) && d.s[d.i] >= '1' && d.s[d.i] <= '9':
		d.digits()
	default:
		return nil, d.fail("a digit")
	}
	if d.i < len(d.s) && d.s[d.i] == '.' {
		d.i++
		if !d.digits() {
			return nil, d.fail("a digit after '.'")
		}
	}
	if d.i < len(d.s) && (d.s[d.i] == 'e' || d.s[d.i] == 'E') {
		d.i++
		if d.i < len(d.s) && (d.s[d.i] == '+' || d.s[d.i] == '-') {
			d.i++
		}
		if !d.digits() {
			return nil, d.fail("a digit in the exponent")
		}
	}
	return json.Number(d.s[start:d.i]), nil
}

func (d *treeDecoder) digits() bool {
	start := d.i
	for d.i < len(d.s) && d.s[d.i] >= '0' && d.s[d.i] <= '9' {
		d.i++
	}
	return d.i > start
}
