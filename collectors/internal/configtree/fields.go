package configtree

import "strings"

// Fields is strings.Fields(s) appended to buf, which the caller may hold on its stack: the
// EOS and NX-OS configuration parsers split every line of every interface block (a slice
// each was a fifth of their allocations).
func Fields(buf []string, s string) []string {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 { // Unicode spaces: strings.Fields' own
			return append(buf, strings.Fields(s)...)
		}
	}
	start := -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\v', '\f', '\r':
			if start >= 0 {
				buf = append(buf, s[start:i])
				start = -1
			}
		default:
			if start < 0 {
				start = i
			}
		}
	}
	if start >= 0 {
		buf = append(buf, s[start:])
	}
	return buf
}
