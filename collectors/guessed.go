package collectors

import (
	"context"
	"errors"
	"time"
)

// GuessStall bounds how long a command sent on a guess may run before it is given up: a
// guessed command nobody asked for yet (a host's phase two foretold from the hosts before it)
// must not hold up the commands that were asked for. With the command timeout instead, which
// is also the device's whole budget by default, one guessed command stalled on a wedged NIC
// the host did not need would have cost every fact of the host. A guess given up is sent
// again, with the full timeout, when a collector asks for it (Prefetched.MarkGuessed).
const GuessStall = 3 * time.Second

// ErrGuessNotSent answers a guessed command the transport did not send because a guess
// before it stalled.
var ErrGuessNotSent = errors.New("not sent: a guess stalled before it")

type guessedKey struct{}

// WithGuessed marks cmds, sent under ctx, as guesses: the transport gives each at most
// GuessStall, and once one stalls sends no more guesses of that batch. A command is marked by
// its text: one both guessed and asked for in the same batch would be treated as a guess
// (discovery's commands and the per-port ones, the only guesses, never meet).
func WithGuessed(ctx context.Context, cmds []string) context.Context {
	if len(cmds) == 0 {
		return ctx
	}
	set := make(map[string]struct{}, len(cmds))
	for _, c := range cmds {
		set[c] = struct{}{}
	}
	return context.WithValue(ctx, guessedKey{}, set)
}

// Guessed reports whether cmd was marked a guess under ctx by WithGuessed.
func Guessed(ctx context.Context, cmd string) bool {
	set, _ := ctx.Value(guessedKey{}).(map[string]struct{})
	_, ok := set[cmd]
	return ok
}

// CommandLimit is how long cmd may run under ctx: timeout, or GuessStall for a guess when
// that is shorter.
func CommandLimit(ctx context.Context, cmd string, timeout time.Duration) time.Duration {
	if Guessed(ctx, cmd) {
		return min(timeout, GuessStall)
	}
	return timeout
}
