package collectors

import (
	"context"
	"sync"

	"golang.org/x/sync/errgroup"
)

// Prefetched is a Runner that answers from batches sent ahead (one SSH session each on a
// runner that batches) and sends anything else itself. A collector whose commands are known
// before it parses their answers sends them all up front and then reads as it always has:
// a wrong guess costs a round trip, never a wrong fact.
//
// Over a device's recorder, a command sent ahead enters the transcript when it is first
// read, not when its batch comes back, so the transcript follows the order the collector
// used the answers in; a guess nobody read (a port's command foretold from another port)
// still ran on the device, and is recorded after the rest when the device is done.
type Prefetched struct {
	next Runner
	mu   sync.Mutex
	m    map[string]*answer
}

type answer struct {
	out     Output
	err     error
	pending *pendingExchange // recorded on first read; nil once recorded or when not recording
	guessed bool             // sent on a guess (MarkGuessed): a failure to answer is sent again
}

// Prefetch sends groups, each as one batch, at most inFlight at a time, and returns the
// runner that answers from them. A command already answered is not sent again. Over a
// Prefetched, the groups join its answers (one map, one first read per command).
func Prefetch(ctx context.Context, r Runner, inFlight int, groups ...[]string) *Prefetched {
	p, ok := r.(*Prefetched)
	if !ok {
		p = &Prefetched{next: r, m: map[string]*answer{}}
	}
	p.Add(ctx, inFlight, groups...)
	return p
}

// Add sends more groups, as Prefetch does.
func (p *Prefetched) Add(ctx context.Context, inFlight int, groups ...[]string) {
	seen := map[string]bool{}
	var g errgroup.Group
	g.SetLimit(max(1, inFlight))
	for _, group := range groups {
		var cmds []string
		p.mu.Lock()
		for _, c := range group {
			if a, ok := p.m[c]; ok && !(a.guessed && a.err != nil) || seen[c] {
				continue
			}
			seen[c] = true
			cmds = append(cmds, c)
		}
		p.mu.Unlock()
		if len(cmds) == 0 {
			continue
		}
		g.Go(func() error {
			as := p.sendAhead(ctx, cmds)
			p.mu.Lock()
			defer p.mu.Unlock()
			for i, c := range cmds {
				p.m[c] = as[i]
			}
			return nil
		})
	}
	_ = g.Wait() // answers carry their own errors
}

// MarkGuessed marks the answers to cmds as guesses: sent before anything asked for them, in
// another command's batch. A guess that failed to be answered (its session did not start,
// the connection dropped, it ran past GuessStall) is sent again when a later group asks for
// it, as if never guessed. It returns how many guesses failed so.
func (p *Prefetched) MarkGuessed(cmds []string) (failed int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range cmds {
		if a, ok := p.m[c]; ok {
			a.guessed = true
			if a.err != nil {
				failed++
			}
		}
	}
	return failed
}

// sendAhead sends cmds as one batch; over a recorder their exchanges wait for a read.
func (p *Prefetched) sendAhead(ctx context.Context, cmds []string) []*answer {
	as := make([]*answer, len(cmds))
	if rec, ok := p.next.(*recorder); ok {
		outs, errs, pend := rec.send(ctx, cmds)
		rec.hold(pend)
		for i := range cmds {
			as[i] = &answer{out: outs[i], err: errs[i], pending: pend[i]}
		}
		return as
	}
	outs, errs := AsBatch(p.next).RunBatch(ctx, cmds)
	for i := range cmds {
		as[i] = &answer{out: outs[i], err: errs[i]}
	}
	return as
}

// Answer is what a batch brought for cmd, if one did, read without sending anything.
func (p *Prefetched) Answer(cmd string) (Output, error, bool) {
	p.mu.Lock()
	a, ok := p.m[cmd]
	var pend *pendingExchange
	if ok {
		pend, a.pending = a.pending, nil
	}
	p.mu.Unlock()
	if !ok {
		return Output{}, nil, false
	}
	pend.record()
	return a.out, a.err, true
}

// Run answers cmd from a batch when one brought it, otherwise sends it.
func (p *Prefetched) Run(ctx context.Context, cmd string) (Output, error) {
	if out, err, ok := p.Answer(cmd); ok {
		return out, err
	}
	return p.next.Run(ctx, cmd)
}

var _ BatchRunner = (*Prefetched)(nil)

// RunBatch answers what batches brought and sends the rest as one batch.
func (p *Prefetched) RunBatch(ctx context.Context, cmds []string) ([]Output, []error) {
	outs, errs := make([]Output, len(cmds)), make([]error, len(cmds))
	var send []string
	var at []int
	for i, c := range cmds {
		var ok bool
		if outs[i], errs[i], ok = p.Answer(c); !ok {
			send, at = append(send, c), append(at, i)
		}
	}
	if len(send) > 0 {
		o, e := AsBatch(p.next).RunBatch(ctx, send)
		for j, i := range at {
			outs[i], errs[i] = o[j], e[j]
		}
	}
	return outs, errs
}
