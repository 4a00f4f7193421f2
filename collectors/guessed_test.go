package collectors

import (
	"context"
	"testing"
	"time"
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
