package collectors

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/topology"
)

// batchFake answers commands by name and counts the batches it was sent.
type batchFake struct {
	answers map[string]Output
	batches [][]string
}

func (b *batchFake) Run(_ context.Context, cmd string) (Output, error) {
	return b.answers[cmd], nil
}

func (b *batchFake) RunBatch(ctx context.Context, cmds []string) ([]Output, []error) {
	b.batches = append(b.batches, cmds)
	return RunEach(ctx, b, cmds)
}

// A batch keeps one exchange per command in the transcript, redacted as Run redacts, and a
// command off the allowlist is recorded as refused and never reaches the runner.
func TestRecordBatchTranscriptPerCommand(t *testing.T) {
	next := &batchFake{answers: map[string]Output{
		"show run": {Stdout: "username nx password 5 $5$nxHASH role network-admin\n"},
		"show ver": {Stdout: "v1\n", Stderr: "warn\n", ExitCode: 3},
	}}
	dev := &topology.Device{Name: "leaf1", Role: topology.RoleSwitch}
	rec := AsBatch(Record(next, NewAllowlist("show run", "show ver"), dev))
	outs, errs := rec.RunBatch(context.Background(), []string{"show run", "reload", "show ver"})
	if len(next.batches) != 1 || strings.Join(next.batches[0], "|") != "show run|show ver" {
		t.Fatalf("runner got batches %q", next.batches)
	}
	if !errors.Is(errs[1], ErrNotAllowed) || errs[0] != nil || errs[2] != nil || outs[2].ExitCode != 3 {
		t.Fatalf("outs %+v errs %v", outs, errs)
	}
	if len(dev.Transcript) != 3 {
		t.Fatalf("transcript %+v", dev.Transcript)
	}
	if got := dev.Transcript[0]; got.Command != "show run" || strings.Contains(got.Stdout, "nxHASH") {
		t.Errorf("first exchange not redacted: %+v", got)
	}
	if got := dev.Transcript[1]; got.Command != "reload" || got.ExitCode != -1 || !strings.Contains(got.Error, "allowlist") {
		t.Errorf("refused exchange: %+v", got)
	}
	if got := dev.Transcript[2]; got.Stdout != "v1\n" || got.Stderr != "warn\n" || got.ExitCode != 3 {
		t.Errorf("third exchange: %+v", got)
	}
}

// A runner without batches gets one Run per command, in order.
func TestAsBatchFallsBackToRun(t *testing.T) {
	var sent []string
	r := AsBatch(runFunc(func(_ context.Context, cmd string) (Output, error) {
		sent = append(sent, cmd)
		if cmd == "bad" {
			return Output{}, errors.New("transport")
		}
		return Output{Stdout: cmd}, nil
	}))
	outs, errs := r.RunBatch(context.Background(), []string{"a", "bad", "c"})
	if strings.Join(sent, ",") != "a,bad,c" || outs[2].Stdout != "c" || errs[1] == nil || errs[0] != nil {
		t.Errorf("sent %q, outs %+v, errs %v", sent, outs, errs)
	}
}

type runFunc func(context.Context, string) (Output, error)

func (f runFunc) Run(ctx context.Context, cmd string) (Output, error) { return f(ctx, cmd) }
