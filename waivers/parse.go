package waivers

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/roceaudit/roceaudit/checks"
)

// keys are the fields an entry may have, in the order error messages list them.
var keys = []string{"check", "device", "interface", "reason", "expires", "owner"}

// Load reads and validates a waiver file.
func Load(path string) ([]Waiver, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading waivers: %w", err)
	}
	return Parse(path, data)
}

// Parse reads a waiver file strictly: a YAML list of entries, each with only the known keys,
// a reason and an expiry date. Every error names name:line and what was expected.
func Parse(name string, data []byte) ([]Waiver, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, syntaxError(name, err)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, nil // an empty file waives nothing
	}
	root := doc.Content[0]
	if root.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("%s:%d: expected a list of waivers (- check: ..., reason: ..., expires: YYYY-MM-DD)", name, root.Line)
	}
	var out []Waiver
	var errs []error
	for i, n := range root.Content {
		w, err := entry(n)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s:%w (waiver %d)", name, err, i+1))
			continue
		}
		out = append(out, w)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return out, nil
}

// lineError is "LINE: message", prefixed with the file name by Parse.
func lineError(n *yaml.Node, format string, a ...any) error {
	return fmt.Errorf("%d: "+format, append([]any{n.Line}, a...)...)
}

func entry(n *yaml.Node) (Waiver, error) {
	w := Waiver{Line: n.Line}
	if n.Kind != yaml.MappingNode {
		return w, lineError(n, "expected a mapping with keys %s", strings.Join(keys, ", "))
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if seen[k.Value] {
			return w, lineError(k, "key %q given twice", k.Value)
		}
		seen[k.Value] = true
		if v.Kind != yaml.ScalarNode {
			return w, lineError(v, "%s: expected a string", k.Value)
		}
		switch k.Value {
		case "check":
			w.Check = v.Value
		case "device":
			w.Device = v.Value
		case "interface":
			w.Interface = v.Value
		case "reason":
			w.Reason = strings.TrimSpace(v.Value)
		case "expires":
			w.Expires = v.Value
			if _, err := time.Parse(time.DateOnly, v.Value); err != nil {
				return w, lineError(v, "expires %q: expected a date YYYY-MM-DD", v.Value)
			}
		case "owner":
			w.Owner = v.Value
		default:
			return w, lineError(k, "unknown key %q (expected one of %s)", k.Value, strings.Join(keys, ", "))
		}
	}
	if w.Reason == "" {
		return w, lineError(n, "reason is required: say why the result is accepted")
	}
	if w.Expires == "" {
		return w, lineError(n, "expires is required: the date (YYYY-MM-DD) the waiver ends")
	}
	if w.Check != "" && !strings.ContainsAny(w.Check, "*?") {
		if err := checks.ValidateIDs([]string{w.Check}); err != nil {
			return w, lineError(n, "check: %w", err)
		}
	}
	return w, nil
}

// yamlLine finds the line yaml.v3 names in a syntax error ("yaml: line 3: mapping values are
// not allowed in this context").
var yamlLine = regexp.MustCompile(`^yaml: line (\d+): `)

// syntaxError is "FILE:LINE: message" for a YAML syntax error, so editors can jump to it.
func syntaxError(name string, err error) error {
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		return fmt.Errorf("%s:%s: %w: %s", name, m[1], errYAML, strings.TrimPrefix(err.Error(), m[0]))
	}
	return fmt.Errorf("%s: %w", name, err)
}

// errYAML marks a waiver file that is not valid YAML.
var errYAML = errors.New("not valid YAML")
