package loginshell

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// splitByBuilder is split as it was, building every word byte by byte: the reference the
// substring words must agree with.
func splitByBuilder(line string, status *int) (argv []string, ok bool) {
	var w strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			argv = append(argv, w.String())
			w.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			flush()
		case status != nil && c == '$' && i+1 < len(line) && line[i+1] == '?':
			w.WriteString(strconv.Itoa(*status))
			inWord = true
			i++
		case c == '\\' && i+1 < len(line):
			i++
			w.WriteByte(line[i])
			inWord = true
		case c == '\'' || c == '"':
			end := strings.IndexByte(line[i+1:], c)
			if end < 0 {
				return nil, false
			}
			quoted := line[i+1 : i+1+end]
			if c == '"' && status != nil {
				quoted = strings.ReplaceAll(quoted, "$?", strconv.Itoa(*status))
			}
			if c == '"' && strings.ContainsAny(quoted, "$`\\") {
				return nil, false
			}
			w.WriteString(quoted)
			inWord = true
			i += end + 1
		case strings.IndexByte(";&|<>()$`\n\\", c) >= 0:
			return nil, false
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	flush()
	return argv, true
}

var splitSeeds = []string{"", " ", "grep -s -H -E '[^0:]' /sys/class/infiniband/*/ports/*/gids/*", `a\ b "c d"e 'f'g h\`,
	`echo "x $? y" $? '$?' a$?b`, "a\tb\t\tc", `""`, `''x`, `x''`, `"a"'b'c\d`, "a;b", "a|b", "$x", "echo `id`", `"$HOME"`, "'open", `"a\b"`, "é ü\xff"}

func FuzzSplitAsBefore(f *testing.F) {
	for _, s := range splitSeeds {
		f.Add(s, 0, false)
		f.Add(s, 7, true)
	}
	f.Fuzz(func(t *testing.T, line string, st int, withStatus bool) {
		var status *int
		if withStatus {
			status = &st
		}
		got, gok := split(line, status)
		want, wok := splitByBuilder(line, status)
		if gok != wok || !slices.Equal(got, want) {
			t.Errorf("split(%q, %v) = %q %v, before %q %v", line, withStatus, got, gok, want, wok)
		}
	})
}

func TestSplitAsBefore(t *testing.T) {
	for _, s := range splitSeeds {
		for _, status := range []*int{nil, new(int)} {
			got, gok := split(s, status)
			want, wok := splitByBuilder(s, status)
			if gok != wok || !slices.Equal(got, want) {
				t.Errorf("split(%q) = %q %v, before %q %v", s, got, gok, want, wok)
			}
		}
	}
}

func BenchmarkWords(b *testing.B) {
	for b.Loop() {
		words("grep -s -H -E '[^0:]' /sys/class/infiniband/*/ports/*/gids/* /sys/class/infiniband/*/ports/*/gid_attrs/types/*")
		words("ethtool -S ens1f0np0")
	}
}

func FuzzFirstWord(f *testing.F) {
	for _, s := range append(splitSeeds, "\u0085echo\u00a0x", " \v\fkill $!", "\xffecho", "echo\xff", "\u2003exec 3<&0") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := ""
		if f := strings.Fields(s); len(f) > 0 {
			want = f[0]
		}
		if got := firstWord(s); got != want {
			t.Errorf("firstWord(%q) = %q, Fields %q", s, got, want)
		}
	})
}

// splitListBefore is splitList as it was, switching on every byte: the reference.
func splitListBefore(line string) (cmds []command, ok bool) {
	start, depth := 0, 0
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == '\\':
			i++
		case c == '\'' || c == '"':
			end := strings.IndexByte(line[i+1:], c)
			if end < 0 {
				return nil, false
			}
			i += end + 1
		case c == '{' && reservedAt(line, start, i):
			depth++
		case c == '}' && depth > 0 && afterSeparator(line[:i]) && (i+1 == len(line) || strings.IndexByte(" \t;&<>", line[i+1]) >= 0):
			depth--
		case depth > 0:
		case c == ';':
			cmds = append(cmds, command{text: line[start:i]})
			start = i + 1
		case c == '&' && i+1 < len(line) && line[i+1] == '&':
			i++ // `&&` stays in its command, which one refuses
		case c == '&' && (i == 0 || line[i-1] != '>' && line[i-1] != '<'):
			cmds = append(cmds, command{text: line[start:i], async: true})
			start = i + 1
		}
	}
	if depth > 0 {
		return nil, false
	}
	return append(cmds, command{text: line[start:]}), true
}

var listSeeds = []string{"a; b", "a & b", "a && b", "x 2>&1 &", "{ a; b; } &", "{a; b}", "echo '{ x; }' \"a;b\" c\\;d", "a;;b", "{ { a; }; }; b",
	"exec 3<&0 </dev/null; { read x <&3; trap \"\" TERM; kill -TERM -$$; } >/dev/null 2>&1 & exec 3<&-; grep -s . /x; echo t $?; kill $!", "'open", "{ a;", "a }", "\\"}

func FuzzSplitListAsBefore(f *testing.F) {
	for _, s := range listSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		got, gok := splitList(line)
		want, wok := splitListBefore(line)
		if gok != wok || !slices.Equal(got, want) {
			t.Errorf("splitList(%q) = %v %v, before %v %v", line, got, gok, want, wok)
		}
	})
}
