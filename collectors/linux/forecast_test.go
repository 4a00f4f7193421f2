package linux

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

// batchCounter answers from a transcript in batches, as an SSH runner does, and counts them.
type batchCounter struct {
	transcriptRunner
	mu      sync.Mutex
	batches int
	sent    []string
	// failFirst fails every command of the first batch that it names, as a session that
	// did not start does.
	failFirst map[string]bool
}

func (b *batchCounter) RunBatch(ctx context.Context, cmds []string) ([]collectors.Output, []error) {
	b.mu.Lock()
	b.batches++
	first := b.batches == 1
	b.sent = append(b.sent, cmds...)
	b.mu.Unlock()
	outs, errs := make([]collectors.Output, len(cmds)), make([]error, len(cmds))
	for i, c := range cmds {
		if first && b.failFirst[c] {
			errs[i] = errors.New("new session: ssh: channel open failed")
			continue
		}
		outs[i], errs[i] = b.Run(ctx, c)
	}
	return outs, errs
}

func collectCounted(t *testing.T, ctx context.Context, tr transcriptRunner) (*topology.Device, *batchCounter) {
	t.Helper()
	r := &batchCounter{transcriptRunner: tr}
	dev := &topology.Device{Name: "gpu01", Platform: "linux", Role: topology.RoleHost}
	if err := (Platform{}).Collect(ctx, r, inventory.DeviceSpec{Name: "gpu01"}, dev); err != nil {
		t.Fatal(err)
	}
	return dev, r
}

// Within a run, once two hosts in a row needed the same per-port commands, the next hosts
// send them with discovery: one batch (one SSH session) instead of two, and the same facts.
func TestForecastSendsPortCommandsWithDiscovery(t *testing.T) {
	tr := loadTranscript(t)
	want, alone := collectCounted(t, context.Background(), tr)
	if alone.batches != 2 {
		t.Fatalf("a host outside a run took %d batches, want 2 (discovery, ports)", alone.batches)
	}
	run := collectors.WithRunMemo(context.Background(), &collectors.RunMemo{})
	for i, batches := range []int{2, 2, 1, 1} {
		got, r := collectCounted(t, run, tr)
		if r.batches != batches {
			t.Errorf("host %d of the run took %d batches, want %d", i+1, r.batches, batches)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("host %d's facts (-alone +in a run):\n%s", i+1, d)
		}
	}
}

// A guess that does not fit the host (ports it lacks) costs only the commands: the host
// reads its own ports in phase two and its facts are what they would have been.
func TestForecastWrongGuessChangesNoFact(t *testing.T) {
	tr := loadTranscript(t)
	want, _ := collectCounted(t, context.Background(), tr)
	memo := &collectors.RunMemo{}
	run := collectors.WithRunMemo(context.Background(), memo)
	wrong := []string{"ethtool -S ens99np0", "mlnx_qos -i ens99np0"}
	f := forecastOf(run, false)
	f.learn(nil, wrong, false)
	f.learn(nil, append([]string(nil), wrong...), false)
	got, r := collectCounted(t, run, tr)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("facts after a wrong guess (-alone +guessed):\n%s", d)
	}
	if r.batches != 2 || !slices.Contains(r.sent, wrong[0]) {
		t.Errorf("%d batches, guess sent %v: want the guess sent with discovery and the ports after", r.batches, slices.Contains(r.sent, wrong[0]))
	}
	if g := f.guess(); g != nil {
		t.Errorf("the wrong guess is still the forecast after a host needed other commands: %q", g)
	}
}

// A guess whose session failed is asked for again in phase two: the host's facts are what
// they would have been without a guess.
func TestForecastGuessLostInTransportIsSentAgain(t *testing.T) {
	tr := loadTranscript(t)
	want, alone := collectCounted(t, context.Background(), tr)
	ports := slices.Clone(alone.sent[len(discoveryCommands):])
	run := collectors.WithRunMemo(context.Background(), &collectors.RunMemo{})
	f := forecastOf(run, false)
	f.learn(nil, ports, false)
	f.learn(nil, ports, false)
	r := &batchCounter{transcriptRunner: tr, failFirst: map[string]bool{}}
	for _, c := range ports {
		r.failFirst[c] = true
	}
	got := &topology.Device{Name: "gpu01", Platform: "linux", Role: topology.RoleHost}
	if err := (Platform{}).Collect(run, r, inventory.DeviceSpec{Name: "gpu01"}, got); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("facts after a guess lost in transport (-alone +guessed):\n%s", d)
	}
	if r.batches != 2 {
		t.Errorf("%d batches, want 2: the guess with discovery, then the lost guess again", r.batches)
	}
}

// After forecastMisses hosts guessed wrong, a run stops guessing: a mixed fleet pays for a
// few wrong guesses, not for one on every other host.
func TestForecastStopsAfterWrongGuesses(t *testing.T) {
	f := &portForecast{}
	a, b := []string{"ethtool -S a"}, []string{"ethtool -S b"}
	f.learn(nil, a, false)
	f.learn(nil, a, false)
	for i := range forecastMisses {
		g := f.guess()
		if g == nil {
			t.Fatalf("no guess after %d misses", i)
		}
		other := b
		if slices.Equal(g, b) {
			other = a
		}
		f.learn(g, other, false) // the host needed the other kind's commands
		f.learn(nil, other, false)
	}
	if g := f.guess(); g != nil {
		t.Errorf("still guessing %q after %d wrong guesses", g, forecastMisses)
	}
}

// Hosts without ports (CPU-only nodes, a driver down) need no phase two: a guess sent to one
// is a miss, and the streak it broke sends no guess to the next ones, rather than every such
// host a fleet's per-port commands.
func TestForecastHostsWithoutPortsAreMisses(t *testing.T) {
	tr := loadTranscript(t)
	run := collectors.WithRunMemo(context.Background(), &collectors.RunMemo{})
	for range forecastStreak {
		collectCounted(t, run, tr)
	}
	bare := maps.Clone(tr)
	bare[CmdRdmaLink] = collectors.Output{Stdout: "[]"}
	bare[CmdIbvDevinfo] = collectors.Output{Stdout: "No IB devices found\n"}
	bare[CmdGIDs] = collectors.Output{}
	guessed := 0
	for range 10 {
		r := &batchCounter{transcriptRunner: bare}
		dev := &topology.Device{Name: "cpu01", Platform: "linux", Role: topology.RoleHost}
		if err := (Platform{}).Collect(run, r, inventory.DeviceSpec{Name: "cpu01"}, dev); err == nil {
			t.Fatal("a host without RDMA ports collected without an error")
		}
		if len(r.sent) > len(discoveryCommands) {
			guessed++
		}
	}
	if f := forecastOf(run, false); guessed != 1 || f.misses != 1 {
		t.Errorf("%d of 10 port-less hosts were sent a guess and %d missed, want the first only", guessed, f.misses)
	}
}

// stallingGuess answers from a transcript in batches and keeps the transport's promise for
// guesses (collectors.GuessStall): the command stall, is given up with a
// timeout, and the guesses after it in the batch are not sent.
type stallingGuess struct {
	batchCounter
	stall string
}

func (s *stallingGuess) RunBatch(ctx context.Context, cmds []string) ([]collectors.Output, []error) {
	s.mu.Lock()
	s.batches++
	s.sent = append(s.sent, cmds...)
	s.mu.Unlock()
	outs, errs := make([]collectors.Output, len(cmds)), make([]error, len(cmds))
	stalled := false
	for i, c := range cmds {
		switch {
		case c == s.stall && !collectors.Guessed(ctx, c):
			<-ctx.Done() // asked for, it would stall until the device's deadline
			errs[i] = ctx.Err()
		case c == s.stall || stalled && collectors.Guessed(ctx, c):
			stalled = true
			errs[i] = fmt.Errorf("%q: guess given up after %s: %w", c, collectors.GuessStall, context.DeadlineExceeded)
		default:
			outs[i], errs[i] = s.transcriptRunner.Run(ctx, c)
		}
	}
	return outs, errs
}

// A guessed command the host does not need, which stalls (a wedged NIC of a port it does
// not audit), costs no fact: the transport gives it up, the guesses after it are asked for
// again in phase two, and the failed guess counts as a miss.
func TestForecastStalledWrongGuessCostsNoFact(t *testing.T) {
	tr := loadTranscript(t)
	want, alone := collectCounted(t, context.Background(), tr)
	ports := slices.Clone(alone.sent[len(discoveryCommands):])
	extra := "mlnx_qos -i ens99np0" // a port this host does not have
	g := append([]string{extra}, ports...)
	run := collectors.WithRunMemo(context.Background(), &collectors.RunMemo{})
	f := forecastOf(run, false)
	f.learn(nil, g, false)
	f.learn(nil, slices.Clone(g), false)
	ctx, cancel := context.WithTimeout(run, 5*time.Second)
	defer cancel()
	r := &stallingGuess{batchCounter: batchCounter{transcriptRunner: tr}, stall: extra}
	got := &topology.Device{Name: "gpu01", Platform: "linux", Role: topology.RoleHost}
	if err := (Platform{}).Collect(ctx, r, inventory.DeviceSpec{Name: "gpu01"}, got); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("facts after a stalled wrong guess (-alone +guessed):\n%s", d)
	}
	if f.misses != 1 {
		t.Errorf("misses = %d after a failed guess, want 1", f.misses)
	}
}
