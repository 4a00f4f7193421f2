package switchcollect

import (
	"context"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/roceaudit/roceaudit/collectors"
)

// Prefetched is a Runner that answers from batches sent ahead (one SSH session each on a
// runner that batches) and sends anything else itself. A collector whose commands are known
// before it parses their answers sends them all up front and then reads as it always has:
// a wrong guess costs a round trip, never a wrong fact.
type Prefetched struct {
	next collectors.Runner
	mu   sync.Mutex
	m    map[string]answer
}

type answer struct {
	out collectors.Output
	err error
}

// Prefetch sends groups, each as one batch, at most inFlight at a time, and returns the
// runner that answers from them. A command already answered is not sent again.
func Prefetch(ctx context.Context, r collectors.Runner, inFlight int, groups ...[]string) *Prefetched {
	p := &Prefetched{next: r, m: map[string]answer{}}
	p.Add(ctx, inFlight, groups...)
	return p
}

// Add sends more groups, as Prefetch does.
func (p *Prefetched) Add(ctx context.Context, inFlight int, groups ...[]string) {
	b := collectors.AsBatch(p.next)
	seen := map[string]bool{}
	var g errgroup.Group
	g.SetLimit(max(1, inFlight))
	for _, group := range groups {
		var cmds []string
		for _, c := range group {
			if seen[c] || p.has(c) {
				continue
			}
			seen[c] = true
			cmds = append(cmds, c)
		}
		if len(cmds) == 0 {
			continue
		}
		g.Go(func() error {
			outs, errs := b.RunBatch(ctx, cmds)
			p.mu.Lock()
			defer p.mu.Unlock()
			for i, c := range cmds {
				p.m[c] = answer{outs[i], errs[i]}
			}
			return nil
		})
	}
	_ = g.Wait() // answers carry their own errors
}

func (p *Prefetched) has(cmd string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, ok := p.m[cmd]
	return ok
}

// Run answers cmd from a batch when one brought it, otherwise sends it.
func (p *Prefetched) Run(ctx context.Context, cmd string) (collectors.Output, error) {
	p.mu.Lock()
	a, ok := p.m[cmd]
	p.mu.Unlock()
	if ok {
		return a.out, a.err
	}
	return p.next.Run(ctx, cmd)
}

var _ collectors.BatchRunner = (*Prefetched)(nil)

// RunBatch answers what batches brought and sends the rest as one batch.
func (p *Prefetched) RunBatch(ctx context.Context, cmds []string) ([]collectors.Output, []error) {
	outs, errs := make([]collectors.Output, len(cmds)), make([]error, len(cmds))
	var send []string
	var at []int
	p.mu.Lock()
	for i, c := range cmds {
		if a, ok := p.m[c]; ok {
			outs[i], errs[i] = a.out, a.err
			continue
		}
		send, at = append(send, c), append(at, i)
	}
	p.mu.Unlock()
	if len(send) > 0 {
		o, e := collectors.AsBatch(p.next).RunBatch(ctx, send)
		for j, i := range at {
			outs[i], errs[i] = o[j], e[j]
		}
	}
	return outs, errs
}

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
