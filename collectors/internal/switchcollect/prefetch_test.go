package switchcollect

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/roceaudit/roceaudit/collectors"
)

// batcher answers "echo X" with X and counts its batches and lone commands.
type batcher struct {
	mu      sync.Mutex
	batches [][]string
	alone   []string
}

func (b *batcher) Run(_ context.Context, cmd string) (collectors.Output, error) {
	b.mu.Lock()
	b.alone = append(b.alone, cmd)
	b.mu.Unlock()
	return collectors.Output{Stdout: strings.TrimPrefix(cmd, "echo ")}, nil
}

func (b *batcher) RunBatch(_ context.Context, cmds []string) ([]collectors.Output, []error) {
	b.mu.Lock()
	b.batches = append(b.batches, cmds)
	b.mu.Unlock()
	outs := make([]collectors.Output, len(cmds))
	for i, c := range cmds {
		outs[i].Stdout = strings.TrimPrefix(c, "echo ") + "!"
	}
	return outs, make([]error, len(cmds))
}

func TestPrefetchAnswersFromItsBatches(t *testing.T) {
	b := &batcher{}
	p := Prefetch(context.Background(), b, 2, []string{"echo a", "echo b", "echo a"}, []string{"echo b", "echo c"}, nil)
	if len(b.batches) != 2 || len(b.batches[0])+len(b.batches[1]) != 3 {
		t.Fatalf("batches %q: want two, each command once", b.batches)
	}
	for _, c := range []string{"a", "b", "c"} {
		if out, err := p.Run(context.Background(), "echo "+c); err != nil || out.Stdout != c+"!" {
			t.Errorf("%s: %+v %v, want the batch's answer", c, out, err)
		}
	}
	if out, _ := p.Run(context.Background(), "echo d"); out.Stdout != "d" || !slices.Equal(b.alone, []string{"echo d"}) {
		t.Errorf("a command no batch brought: %+v, sent alone %q", out, b.alone)
	}
	outs, _ := p.RunBatch(context.Background(), []string{"echo a", "echo e"})
	if outs[0].Stdout != "a!" || outs[1].Stdout != "e!" || !slices.Equal(b.batches[2], []string{"echo e"}) {
		t.Errorf("RunBatch %+v, batches %q: only the unanswered one is sent", outs, b.batches)
	}
}

func TestForPort(t *testing.T) {
	got := ForPort([]string{"nv show system", "nv show interface swp1 link", "nv show interface swp1 counters qos -o json", "nv show interface swp10 link"}, "swp1", "swp52")
	want := []string{"nv show interface swp52 link", "nv show interface swp52 counters qos -o json"}
	if !slices.Equal(got, want) {
		t.Errorf("ForPort = %q, want %q", got, want)
	}
}

func TestSentRecordsInOrder(t *testing.T) {
	s := &Sent{Next: &batcher{}}
	for _, c := range []string{"echo 1", "echo 2"} {
		_, _ = s.Run(context.Background(), c)
	}
	if got := s.Commands(); !slices.Equal(got, []string{"echo 1", "echo 2"}) {
		t.Errorf("Commands = %q", got)
	}
}
