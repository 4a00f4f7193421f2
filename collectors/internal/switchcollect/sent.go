package switchcollect

import (
	"context"
	"strings"
	"sync"

	"github.com/roceaudit/roceaudit/collectors"
)

// Sent records the commands a collector sends through it, in order: what one port needed,
// to foretell what the next ports will (see ForPort).
type Sent struct {
	Next collectors.Runner
	mu   sync.Mutex
	cmds []string
}

func (s *Sent) Run(ctx context.Context, cmd string) (collectors.Output, error) {
	s.mu.Lock()
	s.cmds = append(s.cmds, cmd)
	s.mu.Unlock()
	return s.Next.Run(ctx, cmd)
}

// Commands are the commands sent so far.
func (s *Sent) Commands() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.cmds...)
}

// ForPort is cmds with every word that is port `from` replaced by port `to`; commands that
// do not name from are dropped (they were not the port's own).
func ForPort(cmds []string, from, to string) []string {
	var out []string
	for _, c := range cmds {
		words := strings.Split(c, " ")
		named := false
		for i, w := range words {
			if w == from {
				words[i], named = to, true
			}
		}
		if named {
			out = append(out, strings.Join(words, " "))
		}
	}
	return out
}
