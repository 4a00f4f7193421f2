package linux

import (
	"context"
	"slices"
	"sync"

	"github.com/roceaudit/roceaudit/collectors"
)

// A fleet's hosts are built alike: the per-port commands one host needed (phase two) are,
// most often, what the next one will. Once forecastStreak hosts in a row of a run needed the
// same ones, the next hosts send them with discovery, in its batch: one SSH session a host
// instead of two, two round trips fewer (channel open, exec) and their packets, goroutines
// and syscalls. The ports are still selected from what discovery finds, and every command
// they need that the guess lacks goes in phase two as before; a guessed answer nobody reads
// (a port this host does not have) is only recorded in the transcript: a wrong guess costs
// read-only commands on the host, never a fact. Its cost is bounded: a guessed command may
// run for collectors.GuessStall, not the command timeout (which is also the device's whole
// budget by default), and after one stalls the rest of the guess is not sent; a guessed
// answer that failed so, or in transport, is sent again in phase two (Prefetched.MarkGuessed);
// and after forecastMisses wrong or failed guesses (hosts without ports included) a run
// guesses no more: a mixed fleet, whose hosts alternate, would otherwise guess wrong half
// the time.
type portForecast struct {
	mu     sync.Mutex
	cmds   []string // the last host's phase two, as sent
	streak int      // hosts in a row whose phase two was cmds
	misses int      // hosts whose guess was not their phase two
}

// forecastStreak is how many hosts in a row must agree before their phase two is guessed:
// one host alone would make every host of a mixed fleet guess wrong. forecastMisses is how
// many wrong guesses end the guessing.
const (
	forecastStreak = 2
	forecastMisses = 2
)

type portForecastKey struct{ sudo bool }

// forecastOf is the run's forecast for hosts read with sudo or without, or nil outside a
// collection run.
func forecastOf(ctx context.Context, sudo bool) *portForecast {
	m := collectors.RunMemoOf(ctx)
	if m == nil {
		return nil
	}
	return m.Load(portForecastKey{sudo}, func() any { return &portForecast{} }).(*portForecast)
}

// guess is the phase two to send with discovery, or nil until hosts agree on one.
func (f *portForecast) guess() []string {
	if f == nil {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.streak < forecastStreak || f.misses >= forecastMisses {
		return nil
	}
	return f.cmds
}

// learn records the phase two a host needed (its commands as sent; not changed afterwards;
// none for a host without ports) after guessing guessed (nil: it did not guess). A guess
// misses when it was not what the host needed, or when any of it went unanswered (failed):
// either way it cost the host more than no guess.
func (f *portForecast) learn(guessed, needed []string, failed bool) {
	if f == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if guessed != nil && (failed || !slices.Equal(guessed, needed)) {
		f.misses++
	}
	if slices.Equal(f.cmds, needed) {
		f.streak++
		return
	}
	f.cmds, f.streak = needed, 1
}
