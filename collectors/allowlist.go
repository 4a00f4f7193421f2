package collectors

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/roceaudit/roceaudit/topology"
)

// Placeholders a command template may use; each matches only a validated name.
var placeholders = map[string]string{
	"{if}":   `[A-Za-z0-9][A-Za-z0-9_.:@/-]{0,63}`,
	"{dev}":  `[A-Za-z0-9][A-Za-z0-9_.-]{0,63}`,
	"{port}": `[0-9]{1,3}`,
	"{n}":    `[0-9]{1,6}`,
	"{ip}":   `[0-9A-Fa-f.:]{2,45}`,
}

// SudoPrefix is prepended to host commands when the inventory asks for sudo; -n never prompts.
const SudoPrefix = "sudo -n "

// Allowlist is a platform's published set of read-only command templates. Anything else is
// refused before it is sent.
type Allowlist struct {
	templates []string
	patterns  []templatePattern
	// verdicts remembers commands already judged: a fabric sends the same commands to every
	// host, and a placeholder's counted repetition ({0,63}) makes the regexp an NFA that cost
	// a quarter of a host's instructions (250k per check, two checks per command).
	verdicts sync.Map // command (sudo prefix trimmed) -> bool
	judged   atomic.Int32
}

// maxVerdicts bounds the memory of judged commands; past it, commands are judged afresh.
const maxVerdicts = 1 << 14

// templatePattern is one compiled template. Every command is checked twice (by the
// recorder and by the transport) against every template of its platform; the literal text
// before the first placeholder rules out nearly all of them without running a regexp.
type templatePattern struct {
	prefix string         // the template up to its first placeholder, or all of it
	re     *regexp.Regexp // nil when the template has no placeholder: prefix is the command
}

// NewAllowlist compiles templates such as "ethtool -a {if}".
func NewAllowlist(templates ...string) *Allowlist {
	a := &Allowlist{templates: templates}
	for _, t := range templates {
		expr := regexp.QuoteMeta(t)
		for ph, re := range placeholders {
			expr = strings.ReplaceAll(expr, regexp.QuoteMeta(ph), re)
		}
		p := templatePattern{prefix: t}
		if i := strings.IndexByte(t, '{'); i >= 0 {
			p.prefix, p.re = t[:i], regexp.MustCompile("^"+expr+"$")
		}
		a.patterns = append(a.patterns, p)
	}
	return a
}

// Templates lists the allowlist as published (roceaudit plan, explain).
func (a *Allowlist) Templates() []string { return append([]string(nil), a.templates...) }

// Allows reports whether command (optionally behind "sudo -n ") is an instance of a template.
func (a *Allowlist) Allows(command string) bool {
	command = strings.TrimPrefix(command, SudoPrefix)
	if v, ok := a.verdicts.Load(command); ok {
		return v.(bool)
	}
	ok := a.judge(command)
	if a.judged.Load() < maxVerdicts {
		a.judged.Add(1)
		a.verdicts.Store(command, ok)
	}
	return ok
}

func (a *Allowlist) judge(command string) bool {
	if strings.Contains(command, "..") {
		return false
	}
	for _, p := range a.patterns {
		switch {
		case p.re == nil:
			if command == p.prefix {
				return true
			}
		case strings.HasPrefix(command, p.prefix) && p.re.MatchString(command):
			return true
		}
	}
	return false
}

// Expand fills a template's placeholders, validating every value.
func Expand(template string, vars map[string]string) (string, error) {
	for _, v := range vars {
		if err := validValue(v); err != nil {
			return "", err
		}
	}
	// One pass: a value holds no brace (ValidName), so no value can fill in another.
	var b strings.Builder
	b.Grow(len(template) + 16)
	for rest := template; ; {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			b.WriteString(rest)
			return b.String(), nil
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			return "", fmt.Errorf("template %q: unfilled placeholder", template)
		}
		v, ok := vars[rest[i+1:i+j]]
		if !ok {
			return "", fmt.Errorf("template %q: unfilled placeholder", template)
		}
		b.WriteString(rest[:i])
		b.WriteString(v)
		rest = rest[i+j+1:]
	}
}

// validNames remembers the values ValidName passed: a host's commands are expanded a few
// times each for every port with the same few names, and ValidName is a regexp (16% of an
// 8-rail host's collection CPU). Only passes are kept, at most maxVerdicts of them.
var (
	validNames     sync.Map // name -> struct{}
	validNameCount atomic.Int32
)

func validValue(v string) error {
	if _, ok := validNames.Load(v); ok {
		return nil
	}
	if err := topology.ValidName(v); err != nil {
		return err
	}
	if validNameCount.Load() < maxVerdicts {
		validNameCount.Add(1)
		validNames.Store(v, struct{}{})
	}
	return nil
}
