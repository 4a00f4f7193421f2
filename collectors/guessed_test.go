package collectors

import (
	"context"
	"testing"
	"time"

	"github.com/roceaudit/roceaudit/topology"
)

// A guess runs for GuessStall at most; a command outside the guess keeps the full timeout.
func TestCommandLimit(t *testing.T) {
	ctx := WithGuessed(context.Background(), []string{"mlnx_qos -i eth1"})
	if got := CommandLimit(ctx, "mlnx_qos -i eth1", time.Minute); got != GuessStall {
		t.Errorf("guess: %s, want %s", got, GuessStall)
	}
	if got := CommandLimit(ctx, "mlnx_qos -i eth1", time.Second); got != time.Second {
		t.Errorf("guess under a shorter timeout: %s, want 1s", got)
	}
	if got := CommandLimit(ctx, "mlnx_qos -i eth2", time.Minute); got != time.Minute {
		t.Errorf("not a guess: %s, want 1m", got)
	}
	if got := CommandLimit(context.Background(), "mlnx_qos -i eth1", time.Minute); got != time.Minute {
		t.Errorf("no guess at all: %s, want 1m", got)
	}
}

// notSent answers every command as a guess the transport did not send.
type notSent struct{}

func (notSent) Run(context.Context, string) (Output, error) { return Output{}, ErrGuessNotSent }

func (notSent) RunBatch(_ context.Context, cmds []string) ([]Output, []error) {
	errs := make([]error, len(cmds))
	for i := range errs {
		errs[i] = ErrGuessNotSent
	}
	return make([]Output, len(cmds)), errs
}

// A guess the transport did not send is recorded with its error and no time: it never ran.
func TestGuessNotSentTakesNoTime(t *testing.T) {
	dev := &topology.Device{Name: "gpu1", Role: topology.RoleHost}
	rec := Record(notSent{}, NewAllowlist("echo {if}"), dev).(*recorder)
	_, _ = rec.RunBatch(context.Background(), []string{"echo a", "echo b"})
	if len(dev.Transcript) != 2 {
		t.Fatalf("transcript %+v", dev.Transcript)
	}
	for _, ex := range dev.Transcript {
		if ex.Seconds != 0 || ex.Error == "" || ex.ExitCode != -1 {
			t.Errorf("%+v: want the error, exit -1 and no time", ex)
		}
	}
}
