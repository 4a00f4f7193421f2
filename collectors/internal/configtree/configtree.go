// Package configtree reads the indented running-configuration of EOS and NX-OS into a tree of
// blocks.
package configtree

import (
	"fmt"
	"strings"
)

// Node is one configuration line and the lines indented under it.
type Node struct {
	Line     string
	Children []*Node
}

// Parse turns indented configuration into a tree. Blank lines and "!" lines (comments or
// block separators) are skipped; "end" at the left margin closes the configuration (EOS prints
// one, NX-OS does not). Banner text is skipped. A tab in the indentation, or an indented first
// line, is an error naming the line; a tab inside a line (a description) is fine.
func Parse(text string) ([]*Node, error) {
	type frame struct {
		indent int
		n      *Node
	}
	var roots []*Node
	var stack []frame
	inBanner := false
	for i, raw := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		line := strings.TrimRight(raw, " \t")
		// Banner text (between `banner ...` and a lone EOF) is free text, not configuration.
		if inBanner {
			inBanner = strings.TrimSpace(line) != "EOF"
			continue
		}
		trimmed := strings.TrimLeft(line, " ")
		if trimmed == "" || strings.HasPrefix(trimmed, "!") {
			continue
		}
		if strings.HasPrefix(trimmed, "\t") {
			return nil, fmt.Errorf("line %d %q: tab in indentation", i+1, trimmed)
		}
		if strings.HasPrefix(line, "banner ") {
			inBanner = true
			continue
		}
		indent := len(line) - len(trimmed)
		if indent == 0 && trimmed == "end" {
			break
		}
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			stack = stack[:len(stack)-1]
		}
		n := &Node{Line: trimmed}
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

// AppendLines appends n's line and, under it, its children's, each level indented by indent
// more than its parent, and returns the extended slice: the block as evidence. The indent is
// the caller's because each NOS prints its own (EOS three spaces, NX-OS two).
func (n *Node) AppendLines(dst []string, indent string) []string {
	return n.appendLines(dst, indent, 0)
}

func (n *Node) appendLines(dst []string, indent string, depth int) []string {
	dst = append(dst, strings.Repeat(indent, depth)+n.Line)
	for _, c := range n.Children {
		dst = c.appendLines(dst, indent, depth+1)
	}
	return dst
}
