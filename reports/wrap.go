package reports

import (
	"strings"
	"unicode/utf8"
)

// minWrapWidth keeps a very narrow terminal from folding every word onto its own line: below
// it, lines run past the edge rather than become unreadable.
const minWrapWidth = 40

// wrapWidth is the width text lines are folded at: 0 (never) unless opts asks for one.
func wrapWidth(opts Options) int {
	if opts.Width <= 0 {
		return 0
	}
	return max(opts.Width, minWrapWidth)
}

// wrapLine folds s, a line that may carry ANSI colour codes, into lines of at most width
// visible columns, breaking only at spaces (a word longer than a line keeps its own line,
// never split, so a port or a GID stays whole and searchable). Continuation lines start with
// hang, which aligns them under the column they continue. The spaces at a break are dropped;
// a colour open at a break is closed before it and reopened after hang, so the indent is never
// painted. width 0 returns s unchanged.
func wrapLine(s string, width int, hang string) []string {
	if width <= 0 || visibleWidth(s) <= width {
		return []string{s}
	}
	var (
		out    []string
		line   strings.Builder
		col    int    // visible columns on line
		words  int    // words on line, beyond any leading indent
		active string // SGR codes in effect at this point of s
	)
	// The leading indent belongs to the first line whatever its length.
	indent := len(s) - len(strings.TrimLeft(s, " "))
	line.WriteString(s[:indent])
	col = indent
	rest := s[indent:]
	for rest != "" {
		// One run of spaces, then one word (with any escape codes inside it).
		sp := len(rest) - len(strings.TrimLeft(rest, " "))
		gap := rest[:sp]
		rest = rest[sp:]
		end := strings.IndexByte(rest, ' ')
		if end < 0 {
			end = len(rest)
		}
		word := rest[:end]
		rest = rest[end:]
		if word == "" { // trailing spaces
			break
		}
		w := visibleWidth(word)
		if words > 0 && col+len(gap)+w > width {
			if active != "" {
				line.WriteString(sgrReset)
			}
			out = append(out, line.String())
			line.Reset()
			line.WriteString(hang)
			line.WriteString(active)
			col, words, gap = len(hang), 0, ""
		}
		line.WriteString(gap)
		line.WriteString(word)
		col += len(gap) + w
		words++
		active = sgrAfter(active, word)
	}
	return append(out, line.String())
}

const sgrReset = "\x1b[0m"

// visibleWidth is the columns s takes on a terminal: runes, less ANSI escape sequences.
// Device text reaching here is cleaned (cleanText), so the only escapes are our colours.
func visibleWidth(s string) int {
	if strings.IndexByte(s, '\x1b') < 0 {
		return utf8.RuneCountInString(s)
	}
	n := 0
	for i := 0; i < len(s); {
		if j := csiEnd(s, i); j > i {
			i = j
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		n++
	}
	return n
}

// csiEnd is the end of the CSI sequence (ESC [ ... final byte) starting at s[i], or i.
func csiEnd(s string, i int) int {
	if i+1 >= len(s) || s[i] != '\x1b' || s[i+1] != '[' {
		return i
	}
	for j := i + 2; j < len(s); j++ {
		if s[j] >= '@' && s[j] <= '~' {
			return j + 1
		}
	}
	return len(s)
}

// sgrCloses is whether an SGR sequence only turns attributes off (fatih/color closes bold
// with 22, colours with 0 or 39/49): paint never nests, so a close ends every colour open.
func sgrCloses(seq string) bool {
	for _, p := range strings.Split(strings.TrimSuffix(strings.TrimPrefix(seq, "\x1b["), "m"), ";") {
		switch p {
		case "", "0", "22", "23", "24", "25", "27", "28", "29", "39", "49", "54", "55":
		default:
			return false
		}
	}
	return true
}

// sgrAfter is the colour state after word: a reset clears it, any other SGR adds to it.
func sgrAfter(active, word string) string {
	for i := strings.IndexByte(word, '\x1b'); i >= 0 && i < len(word); {
		j := csiEnd(word, i)
		if j == i {
			i++
			continue
		}
		if seq := word[i:j]; strings.HasSuffix(seq, "m") {
			if sgrCloses(seq) {
				active = ""
			} else {
				active += seq
			}
		}
		next := strings.IndexByte(word[j:], '\x1b')
		if next < 0 {
			break
		}
		i = j + next
	}
	return active
}
