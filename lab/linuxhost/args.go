package linuxhost

import (
	"strings"

	"github.com/roceaudit/roceaudit/lab/loginshell"
)

// gnuArgs is a command line read as GNU getopt reads it: short options may be clustered
// ("-sH"), options and operands may be mixed (getopt permutes them), "--" ends the options.
type gnuArgs struct {
	short    []rune   // short option letters, in order
	long     []string // long options without the leading "--" (and without "=value")
	operands []string
}

func parseGNU(args []string) gnuArgs {
	var g gnuArgs
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			g.operands = append(g.operands, args[i+1:]...)
			return g
		case strings.HasPrefix(a, "--"):
			name, _, _ := strings.Cut(a[2:], "=")
			g.long = append(g.long, name)
		case len(a) > 1 && a[0] == '-':
			g.short = append(g.short, []rune(a[1:])...)
		default:
			g.operands = append(g.operands, a)
		}
	}
	return g
}

// badShort is the first short option not in valid (0 when all are).
func (g gnuArgs) badShort(valid string) rune {
	for _, r := range g.short {
		if !strings.ContainsRune(valid, r) {
			return r
		}
	}
	return 0
}

// only reports whether every option is one of emulated (short letters; no long option).
func (g gnuArgs) only(emulated string) bool {
	return len(g.long) == 0 && g.badShort(emulated) == 0
}

// invalidOption is getopt's complaint about an option letter or a long option, followed by
// the tool's own hint.
func invalidOption(tool string, g gnuArgs, validShort string, hint string) (string, bool) {
	if r := g.badShort(validShort); r != 0 {
		return tool + ": invalid option -- '" + string(r) + "'\n" + hint, true
	}
	return "", false
}

// notEmulated answers a valid command line the lab host does not render.
func notEmulated(argv ...string) (string, string, int) { return loginshell.NotEmulated(argv) }
