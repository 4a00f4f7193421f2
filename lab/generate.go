package lab

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/lab/linuxhost"
)

// Generate sizes a generated two-tier Clos ("a generated Clos of any size for
// benchmarks"): Hosts GPU hosts, Leaves leaf switches, Spines spine switches. A generated
// fabric is healthy: every device follows the lossless recipe. Rails (generate_rails.go) is
// the number of GPU rails per host; 0 and 1 are the dual-port host.
type Generate struct{ Hosts, Leaves, Spines, Rails int }

// Bounds of a generated fabric: enough for benchmarks of a 10,000-device cluster. Each
// device is one listener (a file descriptor); Go raises the soft RLIMIT_NOFILE to the hard
// limit at start-up, which is what such a lab needs (a 10,000-device lab and its connections
// fit in the usual hard limit of 2^20, or 20,000 here).
const (
	MaxGenerateHosts  = 16384
	MaxGenerateLeaves = 256
	MaxGenerateSpines = 64
)

// generateForm is the --generate syntax, for error messages.
const generateForm = "hosts=H,leaves=L,spines=S[,rails=R]"

// generateKey is one key of the --generate value and where its size goes.
type generateKey struct {
	name     string
	max      int
	of       func(g *Generate) *int
	optional bool // may be left out: 0 then
}

var generateKeys = []generateKey{
	{"hosts", MaxGenerateHosts, func(g *Generate) *int { return &g.Hosts }, false},
	{"leaves", MaxGenerateLeaves, func(g *Generate) *int { return &g.Leaves }, false},
	{"spines", MaxGenerateSpines, func(g *Generate) *int { return &g.Spines }, false},
	{"rails", linuxhost.MaxRails, func(g *Generate) *int { return &g.Rails }, true},
}

// ParseGenerate reads "hosts=H,leaves=L,spines=S[,rails=R]": the first three keys always,
// each key once, in any order, each a decimal integer within 1..Max*. Errors name the bad part.
func ParseGenerate(s string) (Generate, error) {
	var g Generate
	if s == "" {
		return g, fmt.Errorf("generate: empty value, expected %s", generateForm)
	}
	seen := map[string]bool{}
	for _, part := range strings.Split(s, ",") {
		key, val, ok := strings.Cut(part, "=")
		if part == "" {
			return Generate{}, fmt.Errorf("generate %q: empty item, expected %s", s, generateForm)
		}
		if !ok {
			return Generate{}, fmt.Errorf("generate %q: %q is not key=value, expected %s", s, part, generateForm)
		}
		k, known := lookupGenerateKey(key)
		if !known {
			return Generate{}, fmt.Errorf("generate %q: unknown key %q (expected hosts, leaves, spines and rails)", s, key)
		}
		if seen[key] {
			return Generate{}, fmt.Errorf("generate %q: %s is given twice", s, key)
		}
		seen[key] = true
		if val == "" || strings.Trim(val, "0123456789") != "" {
			return Generate{}, fmt.Errorf("generate %q: %s: %q is not a positive integer", s, key, val)
		}
		n, err := strconv.Atoi(val)
		if err != nil || n < 1 || n > k.max {
			return Generate{}, fmt.Errorf("generate %q: %s=%s is out of range 1..%d", s, key, val, k.max)
		}
		*k.of(&g) = n
	}
	for _, k := range generateKeys {
		if !seen[k.name] && !k.optional {
			return Generate{}, fmt.Errorf("generate %q: %s= is missing, expected %s", s, k.name, generateForm)
		}
	}
	if err := g.validateRails(); err != nil {
		return Generate{}, err
	}
	return g, nil
}

func lookupGenerateKey(name string) (generateKey, bool) {
	for _, k := range generateKeys {
		if k.name == name {
			return k, true
		}
	}
	return generateKey{}, false
}

// Validate checks every size against its bounds (for a Generate not made by ParseGenerate).
func (g Generate) Validate() error {
	for _, k := range generateKeys {
		if n := *k.of(&g); (n < 1 && !(k.optional && n == 0)) || n > k.max {
			return fmt.Errorf("generate %s: %s=%d is out of range 1..%d", g, k.name, n, k.max)
		}
	}
	return g.validateRails()
}

// String is the --generate form of g; rails= only where there are several.
func (g Generate) String() string {
	s := fmt.Sprintf("hosts=%d,leaves=%d,spines=%d", g.Hosts, g.Leaves, g.Spines)
	if g.rails() > 1 {
		s += fmt.Sprintf(",rails=%d", g.Rails)
	}
	return s
}
