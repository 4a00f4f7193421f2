package linuxhost

import "slices"

// GNU coreutils cat and GNU grep over the host's files. bash expands the globs before the
// program runs; the vfs does it here, scoped to the paths the operands name.

// catShort and grepShort are the short options the real programs take.
const (
	catShort  = "AbeEnstTuv"
	grepShort = "0123456789ABCDEFGHILPRTUVXZabcdefhilmnoqrsuvwxyz"
)

// cat is `cat FILE...` (no option changes the output the lab renders).
func (h *Host) cat(args []string) (string, string, int) {
	g := parseGNU(args)
	if msg, bad := invalidOption("cat", g, catShort, "Try 'cat --help' for more information.\n"); bad {
		return "", msg, 1
	}
	if len(g.short) > 0 || len(g.long) > 0 {
		return notEmulated(append([]string{"cat"}, args...)...)
	}
	if len(g.operands) == 0 {
		return "", "", 0 // reads stdin, which an exec request leaves empty
	}
	return h.filesystem(g.operands).cat(g.operands)
}

// grep is `grep [-s] [-H] [-E] PATTERN FILE...`: "." (any non-empty line) as a basic
// expression, any pattern with -E (POSIX ERE, which Go's regexp reads for the expressions
// hosts are asked, bracket classes such as [[:space:]] included). Other basic expressions and
// options are not emulated.
func (h *Host) grep(args []string) (string, string, int) {
	g := parseGNU(args)
	hint := "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n"
	if msg, bad := invalidOption("grep", g, grepShort, hint); bad {
		return "", msg, 2
	}
	if len(g.operands) == 0 {
		return "", hint, 2
	}
	extended := slices.Contains(g.short, 'E')
	if !g.only("sHE") || !extended && g.operands[0] != "." {
		return notEmulated(append([]string{"grep"}, args...)...)
	}
	match := func(line string) bool { return line != "" }
	if extended {
		m, err := cachedMatcher(g.operands[0])
		if err != nil {
			return notEmulated(append([]string{"grep"}, args...)...)
		}
		match = m.match
	}
	files := g.operands[1:]
	if len(files) == 0 {
		return "", "", 1 // stdin is empty: nothing selected
	}
	silent, named := slices.Contains(g.short, 's'), len(files) > 1 || slices.Contains(g.short, 'H')
	return h.filesystem(files).grepAll(files, named, silent, match)
}
