package collectors

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/roceaudit/roceaudit/topology"
)

// batcher answers "echo X" with X alone and X! in a batch, and keeps what it was sent.
type batcher struct {
	mu      sync.Mutex
	batches [][]string
	alone   []string
}

func (b *batcher) Run(_ context.Context, cmd string) (Output, error) {
	b.mu.Lock()
	b.alone = append(b.alone, cmd)
	b.mu.Unlock()
	return Output{Stdout: strings.TrimPrefix(cmd, "echo ")}, nil
}

func (b *batcher) RunBatch(_ context.Context, cmds []string) ([]Output, []error) {
	b.mu.Lock()
	b.batches = append(b.batches, cmds)
	b.mu.Unlock()
	outs := make([]Output, len(cmds))
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
	if q := Prefetch(context.Background(), p, 1, []string{"echo a", "echo f"}); q != p || !slices.Equal(b.batches[3], []string{"echo f"}) {
		t.Errorf("prefetching over a Prefetched: a new runner, or batches %q resend what it holds", b.batches)
	}
	if _, _, ok := p.Answer("echo g"); ok || len(b.alone) != 1 {
		t.Errorf("Answer of a command no batch brought: ok, or sent %q", b.alone)
	}
}

// A command sent ahead is in the transcript once it is read, once however often it is
// read, in the order of the reads; one never read (a guess) still ran, and is recorded after
// them when the device is done; nothing is while no transcript is kept. A refused command is
// recorded when read, like any other.
func TestPrefetchRecordsWhatIsRead(t *testing.T) {
	dev := &topology.Device{Name: "leaf1", Role: topology.RoleSwitch}
	b := &batcher{}
	rec := Record(b, NewAllowlist("echo {if}"), dev).(*recorder)
	p := Prefetch(context.Background(), rec, 1, []string{"echo a", "echo b", "reload", "echo c"})
	if len(dev.Transcript) != 0 {
		t.Fatalf("recorded before any read: %+v", dev.Transcript)
	}
	for _, c := range []string{"echo c", "reload", "echo a", "echo c"} {
		_, _ = p.Run(context.Background(), c)
	}
	var got []string
	for _, ex := range dev.Transcript {
		got = append(got, ex.Command+"="+ex.Stdout+ex.Error)
	}
	want := []string{"echo c=c!", `reload=command not on the read-only allowlist: "reload"`, "echo a=a!"}
	if !slices.Equal(got, want) {
		t.Errorf("transcript %q, want %q (echo b was never read)", got, want)
	}
	rec.flushUnread()
	rec.flushUnread()
	_, _ = p.Run(context.Background(), "echo b") // read after the flush: recorded once all the same
	if n := len(dev.Transcript); n != 4 || dev.Transcript[3].Command != "echo b" || dev.Transcript[3].Stdout != "b!" {
		t.Errorf("after the device was done, the transcript is %+v, want the unread echo b last, once", dev.Transcript[min(n, 3):])
	}
	if !slices.Equal(b.batches[0], []string{"echo a", "echo b", "echo c"}) {
		t.Errorf("batches %q", b.batches)
	}

	dropped := &topology.Device{Name: "leaf2", Role: topology.RoleSwitch}
	q := Prefetch(context.Background(), &recorder{next: b, al: NewAllowlist("echo {if}"), dev: dropped, drop: true}, 1, []string{"echo a", "reload"})
	_, _ = q.Run(context.Background(), "echo a")
	_, _ = q.Run(context.Background(), "reload")
	q.next.(*recorder).flushUnread()
	if len(dropped.Transcript) != 0 {
		t.Errorf("a recorder that keeps nothing kept %+v", dropped.Transcript)
	}
}
