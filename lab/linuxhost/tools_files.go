package linuxhost

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

// grep is `grep [-s] [-H] . FILE...`: the pattern "." prints every non-empty line. Other
// valid options and patterns are not emulated.
func (h *Host) grep(args []string) (string, string, int) {
	g := parseGNU(args)
	hint := "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n"
	if msg, bad := invalidOption("grep", g, grepShort, hint); bad {
		return "", msg, 2
	}
	if len(g.operands) == 0 {
		return "", hint, 2
	}
	if !g.only("sH") || g.operands[0] != "." {
		return notEmulated(append([]string{"grep"}, args...)...)
	}
	files := g.operands[1:]
	if len(files) == 0 {
		return "", "", 1 // stdin is empty: nothing selected
	}
	silent, named := false, len(files) > 1
	for _, r := range g.short {
		silent = silent || r == 's'
		named = named || r == 'H'
	}
	return h.filesystem(files).grepAll(files, named, silent)
}
