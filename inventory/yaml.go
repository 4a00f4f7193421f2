package inventory

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// The inventory is walked as a yaml.Node tree rather than unmarshalled into structs so that
// every error can name its line and column, and so that unknown and duplicate keys (which
// yaml.v3 ignores or reports without a column) are caught everywhere.

// field is one key: value pair of a mapping.
type field struct{ key, val *yaml.Node }

// deref follows an alias to the node it names; anchors are allowed for repeated lists.
func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	n = deref(n)
	return n == nil || n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// describe names what a node holds, for "got ..." in messages.
func describe(n *yaml.Node) string {
	n = deref(n)
	switch {
	case n == nil:
		return "nothing"
	case n.Kind == yaml.MappingNode:
		return "a mapping"
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case n.Kind == yaml.DocumentNode:
		return "a document"
	case n.ShortTag() == "!!null":
		return "no value"
	case n.ShortTag() == "!!str":
		return strconv.Quote(n.Value)
	default:
		return n.Value
	}
}

func (p *parser) errorf(n *yaml.Node, format string, args ...any) {
	p.errs.addIn(p.fileOf(n), n.Line, n.Column, fmt.Errorf(format, args...))
}

// lineOf names n's line for a message about from: "line N" in the same file, else FILE:N.
func (p *parser) lineOf(n, from *yaml.Node) string {
	if f := p.fileOf(n); f != p.fileOf(from) {
		return fmt.Sprintf("%s:%d", f, n.Line)
	}
	return fmt.Sprintf("line %d", n.Line)
}

// fileOf is the file n was read from: the inventory, or a file it pulls in (Ansible's
// group_vars), whose nodes are recorded in p.files.
func (p *parser) fileOf(n *yaml.Node) string {
	if f, ok := p.files[n]; ok {
		return f
	}
	return p.file
}

// mapping returns the entries of a mapping node by key, reporting duplicate keys and keys
// not in allowed. hints replace the generic message for keys that are known mistakes.
// ok is false when n is not a mapping at all.
func (p *parser) mapping(n *yaml.Node, what string, allowed []string, hints map[string]string) (map[string]field, bool) {
	m := deref(n)
	if m == nil || m.Kind != yaml.MappingNode {
		p.errorf(n, "%s: expected a mapping with keys %s, got %s", what, strings.Join(allowed, ", "), describe(n))
		return nil, false
	}
	out := make(map[string]field, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			p.errorf(k, "%s: expected a key, got %s", what, describe(k))
			continue
		}
		if first, dup := out[k.Value]; dup {
			p.errorf(k, "duplicate key %q in %s (first at line %d)", k.Value, what, first.key.Line)
			continue
		}
		if !slices.Contains(allowed, k.Value) {
			p.unknownKey(k, what, allowed, hints)
			continue
		}
		out[k.Value] = field{key: k, val: v}
	}
	return out, true
}

func (p *parser) unknownKey(k *yaml.Node, what string, allowed []string, hints map[string]string) {
	if h, ok := hints[k.Value]; ok {
		p.errorf(k, "key %q is not allowed in %s: %s", k.Value, what, h)
		return
	}
	msg := fmt.Sprintf("unknown key %q in %s (expected one of: %s)", k.Value, what, strings.Join(allowed, ", "))
	if s := closest(k.Value, allowed); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	p.errorf(k, "%s", msg)
}

// closest is the allowed key a typo most likely meant, or "" when none is near.
func closest(key string, allowed []string) string {
	best, bestDist := "", 3 // more than two edits away is not a typo
	for _, a := range allowed {
		if d := editDistance(strings.ToLower(key), a); d < bestDist {
			best, bestDist = a, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// scalar returns the scalar behind n, reporting anything else (and an empty value).
func (p *parser) scalar(n *yaml.Node, key, expect string) (*yaml.Node, bool) {
	v := deref(n)
	if v == nil || v.Kind != yaml.ScalarNode {
		p.errorf(n, "%s: expected %s, got %s", key, expect, describe(n))
		return nil, false
	}
	if v.ShortTag() == "!!null" {
		p.errorf(n, "%s: no value (expected %s)", key, expect)
		return nil, false
	}
	return v, true
}

// str accepts any non-empty scalar: `user: 1000` is a user name, not a type error.
func (p *parser) str(n *yaml.Node, key, expect string) (string, bool) {
	v, ok := p.scalar(n, key, expect)
	if !ok {
		return "", false
	}
	return v.Value, true
}

func (p *parser) integer(n *yaml.Node, key string, lo, hi int64, expect string) (int, bool) {
	v, ok := p.scalar(n, key, expect)
	if !ok {
		return 0, false
	}
	var i int64
	if v.ShortTag() != "!!int" || v.Decode(&i) != nil {
		p.errorf(n, "%s: %s is not an integer (expected %s)", key, describe(v), expect)
		return 0, false
	}
	if i < lo || i > hi {
		p.errorf(n, "%s: %d is out of range (expected %s)", key, i, expect)
		return 0, false
	}
	return int(i), true
}

func (p *parser) boolean(n *yaml.Node, key string) (bool, bool) {
	v, ok := p.scalar(n, key, "true or false")
	if !ok {
		return false, false
	}
	var b bool
	// Only YAML 1.2 booleans: yaml.v3 would also take "yes" or "on" into a bool.
	if v.ShortTag() != "!!bool" || v.Decode(&b) != nil {
		p.errorf(n, "%s: %s is not a boolean (expected true or false)", key, describe(v))
		return false, false
	}
	return b, true
}

func (p *parser) float(n *yaml.Node, key string) (float64, bool) {
	v, ok := p.scalar(n, key, "a number")
	if !ok {
		return 0, false
	}
	var f float64
	tag := v.ShortTag()
	if tag != "!!float" && tag != "!!int" || v.Decode(&f) != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		p.errorf(n, "%s: %s is not a number (expected a number like 0.9)", key, describe(v))
		return 0, false
	}
	return f, true
}

func (p *parser) duration(n *yaml.Node, key string) (time.Duration, bool) {
	const expect = "a duration like 20s or 1m30s"
	v, ok := p.scalar(n, key, expect)
	if !ok {
		return 0, false
	}
	if tag := v.ShortTag(); tag == "!!int" || tag == "!!float" {
		p.errorf(n, "%s: %s has no unit (expected %s)", key, v.Value, expect)
		return 0, false
	}
	d, err := time.ParseDuration(v.Value)
	if err != nil {
		p.errorf(n, "%s: %q is not a duration (expected %s)", key, v.Value, expect)
		return 0, false
	}
	if d <= 0 {
		p.errorf(n, "%s: %s is not positive (expected %s)", key, v.Value, expect)
		return 0, false
	}
	return d, true
}

// list returns the items of a sequence node.
func (p *parser) list(n *yaml.Node, key, expect string) ([]*yaml.Node, bool) {
	v := deref(n)
	if v == nil || v.Kind != yaml.SequenceNode {
		p.errorf(n, "%s: expected %s, got %s", key, expect, describe(n))
		return nil, false
	}
	return v.Content, true
}
