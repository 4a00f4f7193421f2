package inventory

import (
	"strings"
)

// expandClabEnv expands environment variables in a topology file's text before it is parsed,
// as containerlab does (it runs envsubst, leaving unset variables alone): $VAR and ${VAR};
// ${VAR:-default} and ${VAR:=default} when VAR is unset or empty; ${VAR-default} and
// ${VAR=default} when it is unset. A variable that is unset and has no default stays as
// written, so `$1` in an exec: line or a literal $ is untouched.
func expandClabEnv(data []byte, lookup func(string) (string, bool)) []byte {
	s := string(data)
	if !strings.Contains(s, "$") {
		return data
	}
	return []byte(expandEnvText(s, lookup))
}

func expandEnvText(s string, lookup func(string) (string, bool)) string {
	var out strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 >= len(s) {
			out.WriteByte(s[i])
			continue
		}
		if s[i+1] == '{' {
			end := matchingBrace(s, i+1)
			if end < 0 {
				out.WriteByte(s[i])
				continue
			}
			if v, ok := expandBraced(s[i+2:end], lookup); ok {
				out.WriteString(v)
				i = end
				continue
			}
			out.WriteByte(s[i])
			continue
		}
		n := envNameLen(s[i+1:])
		if n == 0 {
			out.WriteByte(s[i])
			continue
		}
		if v, ok := lookup(s[i+1 : i+1+n]); ok {
			out.WriteString(v)
			i += n
			continue
		}
		out.WriteByte(s[i])
	}
	return out.String()
}

// matchingBrace is the index of the } that closes the { at open, allowing nested ${...} in a
// default value; -1 when there is none on the line.
func matchingBrace(s string, open int) int {
	depth := 0
	for j := open; j < len(s) && s[j] != '\n'; j++ {
		switch s[j] {
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				return j
			}
		}
	}
	return -1
}

// expandBraced expands the inside of ${...}; ok is false to leave it as written.
func expandBraced(body string, lookup func(string) (string, bool)) (string, bool) {
	n := envNameLen(body)
	if n == 0 {
		return "", false
	}
	name, rest := body[:n], body[n:]
	val, set := lookup(name)
	if rest == "" {
		return val, set
	}
	for _, op := range []string{":-", ":=", "-", "="} {
		if def, ok := strings.CutPrefix(rest, op); ok {
			useDefault := !set || (strings.HasPrefix(op, ":") && val == "")
			if useDefault {
				return expandEnvText(def, lookup), true
			}
			return val, true
		}
	}
	return "", false // another envsubst operator: left as written
}

// envNameLen is the length of the variable name at the start of s (none starts with a digit).
func envNameLen(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return i
	}
	return len(s)
}
