package inventory

import (
	"fmt"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

// The INI format as Ansible's ini inventory plugin reads it: [group] sections list hosts
// (a host pattern, then key=value variables, shell-quoted), [group:vars] hold key=value
// lines, [group:children] name subgroups; lines starting # or ; are comments; hosts before
// any section are ungrouped. Values are typed as Ansible's literal_eval types them, so
// port=2222 is a number and quotes make a string.

var (
	iniSectionLine = regexp.MustCompile(`^\[([^:\]\s]+)(?::(\w+))?\]\s*(?:[#;].*)?$`)
	iniInteger     = regexp.MustCompile(`^[-+]?[0-9]+$`)
	iniHostVar     = regexp.MustCompile(`(?m)^\s*[^\s#;:]+\s+[A-Za-z_][A-Za-z0-9_]*=`) // host key=value
)

// ansibleFormat tells the three formats apart from the content, the way Ansible's plugins
// accept or refuse a file: JSON starts with {, YAML is a mapping, the rest is INI.
func ansibleFormat(data []byte) string {
	body := strings.TrimSpace(string(data))
	if strings.HasPrefix(body, "{") {
		return "json"
	}
	for line := range strings.SplitSeq(body, "\n") {
		if line = strings.TrimSpace(line); line != "" && line[0] != '#' && line[0] != ';' {
			if iniSectionLine.MatchString(line) {
				return "ini"
			}
			break
		}
	}
	var v any
	switch err := yaml.Unmarshal(data, &v); {
	case err == nil:
		if _, isStr := v.(string); isStr {
			return "ini" // bare host names, one a line
		}
		return "yaml" // a list or an empty file: the YAML reader says what it expected
	case iniHostVar.Match(data):
		return "ini"
	}
	return "yaml" // broken YAML: its syntax error says more than an INI reading would
}

func (a *ansState) readINI(data []byte) *yaml.Node {
	p := a.p
	root := &yaml.Node{Kind: yaml.ScalarNode, Line: 1, Column: 1}
	group, kind := a.group("ungrouped"), "hosts"
	defined := map[string]bool{"all": true, "ungrouped": true}
	pendingVars := map[string]*yaml.Node{} // [g:vars] of a group not (yet) defined
	for i, raw := range strings.Split(string(data), "\n") {
		lineNo := i + 1
		line := strings.TrimSpace(strings.TrimSuffix(raw, "\r"))
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		col := strings.Index(raw, line) + 1
		at := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: line, Line: lineNo, Column: col}
		if strings.HasPrefix(line, "[") {
			m := iniSectionLine.FindStringSubmatch(line)
			if m == nil {
				p.errorf(at, "%q is not a section header (expected [group], [group:vars] or [group:children])", secretHidden(line))
				return nil
			}
			group, kind = a.group(m[1]), m[2]
			switch kind {
			case "":
				kind, defined[m[1]] = "hosts", true
			case "children":
				defined[m[1]] = true
			case "vars":
				if !defined[m[1]] {
					pendingVars[m[1]] = at
				}
			default:
				p.errorf(at, "section [%s:%s] has unknown type %q (expected vars or children)", m[1], m[2], m[2])
				return nil
			}
			continue
		}
		switch kind {
		case "hosts":
			a.iniHost(group, raw, lineNo)
		case "vars":
			k, v, ok := strings.Cut(line, "=")
			if !ok {
				p.errorf(at, "[%s:vars]: %q is not key=value", group.name, secretHidden(line))
				continue
			}
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			key := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k, Line: lineNo, Column: col}
			eq := strings.IndexByte(line, '=')
			after := line[eq+1:]
			vcol := col + eq + 1 + len(after) - len(strings.TrimLeft(after, " \t"))
			group.vars[k] = field{key: key, val: iniValue(v, true, lineNo, vcol)}
		case "children":
			name, _, _ := strings.Cut(strings.Fields(line)[0], "#")
			defined[name] = true
			a.addParent(a.group(name), group.name, at)
		}
	}
	for name, at := range pendingVars {
		if !defined[name] {
			p.errorf(at, "[%s:vars] is for a group that no [%s] or [%s:children] section defines", name, name, name)
		}
	}
	a.underAll()
	return root
}

// iniHost reads `pattern key=value ...` of a [group] section.
func (a *ansState) iniHost(g *ansGroup, raw string, lineNo int) {
	p := a.p
	toks, err := shellWords(raw)
	if err != nil {
		p.errorf(&yaml.Node{Line: lineNo, Column: 1}, "%v", err)
		return
	}
	if len(toks) == 0 {
		return
	}
	key := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: toks[0].text, Line: lineNo, Column: toks[0].col}
	vars := &yaml.Node{Kind: yaml.MappingNode, Line: lineNo, Column: toks[0].col}
	for _, t := range toks[1:] {
		k, v, ok := strings.Cut(t.text, "=")
		if !ok || k == "" {
			p.errorf(&yaml.Node{Line: lineNo, Column: t.col}, "host %s: %q is not key=value (a host line is a host pattern, then variables such as ansible_host=10.0.0.1)", toks[0].text, secretHidden(t.text))
			return
		}
		vars.Content = append(vars.Content,
			&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k, Line: lineNo, Column: t.col},
			iniValue(v, false, lineNo, t.col+len(k)+1))
	}
	var val *yaml.Node
	if len(vars.Content) > 0 {
		val = vars
	}
	a.parseHost(g, field{key: key, val: val})
}

// iniValue types a value as Ansible's literal_eval does: integers, True/False, quoted
// strings (in [group:vars], where the quotes are still there), everything else a string.
func iniValue(v string, quoted bool, line, col int) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v, Line: line, Column: col}
	switch {
	case quoted && len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0]:
		n.Value = v[1 : len(v)-1]
	case iniInteger.MatchString(v):
		n.Tag = "!!int"
	case v == "True" || v == "False" || v == "true" || v == "false":
		n.Tag, n.Value = "!!bool", strings.ToLower(v)
	case v == "None":
		n.Tag, n.Value = "!!null", ""
	}
	return n
}

type shellWord struct {
	text string
	col  int
}

// shellWords splits a line as Python's shlex.split(line, comments=True) does: whitespace
// separates words, quotes group, a backslash escapes, # at a word's start ends the line.
func shellWords(line string) ([]shellWord, error) {
	var out []shellWord
	var cur strings.Builder
	inWord, quote, start := false, byte(0), 0
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' && i+1 < len(line) && (line[i+1] == '"' || line[i+1] == '\\') {
				i++
				cur.WriteByte(line[i])
			} else {
				cur.WriteByte(c)
			}
		case c == ' ' || c == '\t' || c == '\r':
			if inWord {
				out = append(out, shellWord{cur.String(), start + 1})
				cur.Reset()
				inWord = false
			}
		case c == '#' && !inWord:
			return out, nil
		default:
			if !inWord {
				inWord, start = true, i
			}
			switch c {
			case '\'', '"':
				quote = c
			case '\\':
				if i+1 < len(line) {
					i++
					cur.WriteByte(line[i])
				}
			default:
				cur.WriteByte(c)
			}
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unclosed %c quote", quote)
	}
	if inWord {
		out = append(out, shellWord{cur.String(), start + 1})
	}
	return out, nil
}

// underAll makes every group without a parent a child of all, as Ansible's inventory does
// once a source is read.
func (a *ansState) underAll() {
	for _, g := range a.groups {
		if g.name != "all" && len(g.parents) == 0 {
			g.parents = []string{"all"}
		}
	}
}

// secretHidden is a malformed line as an error may quote it: a line that names a password
// (ansible_become_password: X, with ':' for '=') keeps its name and loses the rest.
func secretHidden(line string) string {
	l := strings.ToLower(line)
	if !strings.Contains(l, "pass") && !strings.Contains(l, "secret") && !strings.Contains(l, "token") {
		return line
	}
	if i := strings.IndexAny(line, ":= \t"); i > 0 {
		return line[:i] + " <the rest is not shown: it may be a secret>"
	}
	return "<not shown: it may be a secret>"
}
