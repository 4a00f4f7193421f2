package nxos

import (
	"fmt"
	"strings"
)

// node is one configuration line and the lines indented under it.
type node struct {
	Line     string
	Children []*node
}

// parseTree turns indented NX-OS configuration into a tree. "!" lines are comments or block
// separators; NX-OS has no "end" line, but one is tolerated.
func parseTree(text string) ([]*node, error) {
	type frame struct {
		indent int
		n      *node
	}
	var roots []*node
	var stack []frame
	for i, raw := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		line := strings.TrimRight(raw, " \t")
		trimmed := strings.TrimLeft(line, " ")
		if trimmed == "" || strings.HasPrefix(trimmed, "!") {
			continue
		}
		if strings.Contains(line, "\t") {
			return nil, fmt.Errorf("line %d %q: tab in indentation", i+1, trimmed)
		}
		indent := len(line) - len(trimmed)
		if indent == 0 && trimmed == "end" {
			break
		}
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			stack = stack[:len(stack)-1]
		}
		n := &node{Line: trimmed}
		if len(stack) == 0 {
			if indent != 0 {
				return nil, fmt.Errorf("line %d %q: indented with no enclosing block", i+1, trimmed)
			}
			roots = append(roots, n)
		} else {
			p := stack[len(stack)-1].n
			p.Children = append(p.Children, n)
		}
		stack = append(stack, frame{indent, n})
	}
	return roots, nil
}

// flatten lists a block's lines with their children indented, for evidence.
func flatten(n *node, depth int, out *[]string) {
	*out = append(*out, strings.Repeat("  ", depth)+n.Line)
	for _, c := range n.Children {
		flatten(c, depth+1, out)
	}
}
