package collectors

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

// Session is an open connection to one device.
type Session interface {
	Runner
	Close() error
	// Simulated is true when the device is an emulated lab device (it says so in its SSH
	// banner), so reports can say they come from a simulation.
	Simulated() bool
}

// Dialer opens sessions. It must refuse any command outside al. A failure after the device
// accepted the login (an interactive CLI that never shows its prompt) is marked LoggedIn.
type Dialer interface {
	Dial(ctx context.Context, spec inventory.DeviceSpec, al *Allowlist) (Session, error)
}

// LoggedIn marks a Dial error that came after the device accepted the SSH login: the device
// is reachable, and what failed is reading it. The message is err's.
func LoggedIn(err error) error {
	if err == nil {
		return nil
	}
	return &loggedInError{err}
}

type loggedInError struct{ err error }

func (e *loggedInError) Error() string { return e.err.Error() }
func (e *loggedInError) Unwrap() error { return e.err }

// isLoggedIn reports whether err is marked LoggedIn.
func isLoggedIn(err error) bool {
	var li *loggedInError
	return errors.As(err, &li)
}

// ErrNoPrompt marks a Runner error where an interactive CLI never showed its prompt again.
// Such an error says what the device sent instead, which is what explains a device that ran
// out of time: a collector that stops at its context's deadline reports only the deadline.
var ErrNoPrompt = errors.New("no prompt")

// Options tune a collection run.
type Options struct {
	Concurrency int // devices collected at once; default 16
	// Progress, when set, is called after each device finishes (from several goroutines).
	Progress func(done, total int, device string)
	Now      func() time.Time
	// Transcripts, when set, takes each device's transcript as soon as the device is
	// collected (the device then keeps none), so memory does not grow with every command's
	// output of the whole fabric. Nil keeps transcripts on the devices.
	Transcripts topology.TranscriptSink
	// Facts, when set, takes each device's facts as soon as the device is collected (by its
	// index in the snapshot); the snapshot then keeps only the device's identity,
	// reachability and error. For a run that writes the snapshot and checks nothing.
	Facts FactSink
	// ChecksOnly keeps only the facts a check or report reads, for a run that writes no
	// snapshot: switch-port counters go (a transfer samples its own), ~100 MB at 10,000
	// devices.
	ChecksOnly bool
}

// FactSink keeps the facts of device i of a snapshot (a *topology.FactSpool).
type FactSink interface {
	Add(i int, d *topology.Device) error
}

// Collect gathers facts from every device of the inventory. It never fails as a whole: a
// device that cannot be reached or collected is recorded with its error, and the rest of the
// fabric is still collected. Only ctx cancellation (or a failing transcript or fact sink) stops it
// early.
func Collect(ctx context.Context, inv *inventory.Inventory, reg *Registry, dialer Dialer, opts Options) (*topology.Snapshot, error) {
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	conc := opts.Concurrency
	if conc <= 0 {
		conc = 16
	}
	snap := &topology.Snapshot{
		Schema:  topology.SnapshotSchema,
		Started: now().UTC(),
		Recipe:  inv.Recipe,
		Links:   append([]topology.Link(nil), inv.Links...),
		Paths:   append([][2]string(nil), inv.Paths...),
	}
	snap.Devices = make([]*topology.Device, len(inv.Devices))
	var (
		mu   sync.Mutex
		done int
	)
	g, gctx := errgroup.WithContext(WithRunMemo(ctx, &RunMemo{}))
	g.SetLimit(conc)
	var in *interner // only where facts stay in memory past their outputs (below)
	if opts.Transcripts != nil && opts.Facts == nil {
		in = newInterner(len(inv.Devices))
	}
	checked := NewCounterFilter(topology.IsSnapshotCounter) // the counters checks read
	for i, spec := range inv.Devices {
		snap.Devices[i] = &topology.Device{Name: spec.Name, Platform: spec.Platform, Role: spec.Role, Address: spec.Address}
	}
	for _, i := range dispatchOrder(inv.Devices) {
		spec, dev := inv.Devices[i], snap.Devices[i]
		g.Go(func() error {
			// A transcript that would be dropped is not recorded: its outputs can go as soon
			// as they are parsed, rather than live until the device is done.
			dctx := gctx
			if opts.Transcripts != nil { // the counters will be pruned (below): keep only those
				dctx = WithCounterFilter(gctx, checked)
			}
			sim := collectDevice(dctx, reg, dialer, spec, dev, opts.Transcripts != topology.DiscardTranscripts)
			if opts.ChecksOnly {
				dropSwitchCounters(dev)
			}
			if opts.Transcripts != nil {
				if err := opts.Transcripts.Add(dev.Name, dev.Transcript); err != nil {
					return err
				}
				dev.Transcript = nil
				topology.PruneHostCounters(dev) // the transcript has every counter
			}
			if opts.Facts != nil {
				if err := opts.Facts.Add(i, dev); err != nil {
					return err
				}
				dev.Host, dev.Switch = nil, nil // on disk now, with the outputs they came from
			} else if opts.Transcripts != nil {
				in.detachLike(dev, dev.Platform) // the outputs the facts were parsed from can go now
			}
			mu.Lock()
			done++
			if sim {
				snap.Simulated = true
			}
			n := done
			mu.Unlock()
			if opts.Progress != nil {
				opts.Progress(n, len(inv.Devices), spec.Name)
			}
			return nil
		})
	}
	werr := g.Wait() // only a transcript or fact sink fails a collection
	snap.Finished = now().UTC()
	if werr != nil {
		return snap, fmt.Errorf("keeping transcripts and facts: %w", werr)
	}
	if err := ctx.Err(); err != nil {
		return snap, fmt.Errorf("collection interrupted: %w", err)
	}
	return snap, nil
}

// dispatchOrder starts switches before hosts: a switch answers one command per port in
// turn (hundreds of round trips on a leaf), a host a few batches of parallel commands, so
// a fabric in inventory order (hosts first) would end with its longest devices alone on
// the wire. Longest first keeps every slot busy until the end (the benchmark's floor is
// this schedule). The snapshot keeps the inventory's order.
func dispatchOrder(devs []inventory.DeviceSpec) []int {
	order := make([]int, 0, len(devs))
	for _, hosts := range []bool{false, true} {
		for i, d := range devs {
			if (d.Role == topology.RoleHost) == hosts {
				order = append(order, i)
			}
		}
	}
	return order
}

// dropSwitchCounters drops the values of every switch port's counters (no check or report
// reads them), keeping where they came from.
func dropSwitchCounters(dev *topology.Device) {
	if dev.Switch == nil {
		return
	}
	for _, p := range dev.Switch.Ports {
		if p != nil {
			p.Counters.Value = nil
		}
	}
}

// collectDevice fills dev, with its transcript when record is set; it reports whether the
// device is simulated.
func collectDevice(ctx context.Context, reg *Registry, dialer Dialer, spec inventory.DeviceSpec, dev *topology.Device, record bool) bool {
	p, ok := reg.Get(spec.Platform)
	if !ok {
		dev.Error = fmt.Sprintf("no collector for platform %q", spec.Platform)
		return false
	}
	timeout := spec.Conn.Timeout
	if timeout <= 0 {
		timeout = 20 * time.Second
	}
	dctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	sess, err := dialer.Dial(dctx, spec, p.Allowlist())
	if err != nil {
		dev.Error = err.Error()
		dev.Reachable = isLoggedIn(err)
		return false
	}
	defer sess.Close()
	dev.Reachable = true
	rec := &recorder{next: sess, al: p.Allowlist(), dev: dev, drop: !record}
	defer rec.flushUnread()
	if err := p.Collect(dctx, rec, spec, dev); err != nil {
		dev.Error = fmt.Sprintf("collecting from %s: %v", spec.Name, err)
		if errors.Is(err, context.DeadlineExceeded) {
			dev.Error += fmt.Sprintf(" (device timeout %s; raise it with --timeout)", timeout)
		}
		if np := rec.noPromptErr(); np != nil && !strings.Contains(dev.Error, np.Error()) {
			dev.Error += "; " + np.Error()
		}
	}
	return sess.Simulated()
}

// Record wraps a runner so that it enforces the allowlist once more and appends every command
// and its answer to dev's transcript. Use one recorder per device at a time.
func Record(next Runner, al *Allowlist, dev *topology.Device) Runner {
	return &recorder{next: next, al: al, dev: dev}
}

// recorder enforces the allowlist once more and keeps the transcript of every command.
type recorder struct {
	next Runner
	al   *Allowlist
	mu   sync.Mutex
	dev  *topology.Device
	drop bool // keep no transcript (the allowlist is still enforced)

	unread   []*pendingExchange // sent ahead, recorded when read or by flushUnread; guarded by mu
	noPrompt error              // the last ErrNoPrompt a command ended in; guarded by mu
}

// noteNoPrompt keeps err when it is an ErrNoPrompt, for collectDevice's error.
func (r *recorder) noteNoPrompt(err error) {
	if errors.Is(err, ErrNoPrompt) {
		r.mu.Lock()
		r.noPrompt = err
		r.mu.Unlock()
	}
}

func (r *recorder) noPromptErr() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.noPrompt
}

func (r *recorder) Run(ctx context.Context, command string) (Output, error) {
	if !r.al.Allows(command) {
		err := fmt.Errorf("%w: %q", ErrNotAllowed, command)
		r.add(topology.Exchange{Command: command, Error: err.Error(), ExitCode: -1})
		return Output{}, err
	}
	if r.drop {
		out, err := r.next.Run(ctx, command)
		r.noteNoPrompt(err)
		return out, err
	}
	start := time.Now()
	out, err := r.next.Run(ctx, command)
	r.noteNoPrompt(err)
	ex := topology.Exchange{Command: command, Stdout: out.Stdout, Stderr: out.Stderr, ExitCode: out.ExitCode,
		Seconds: time.Since(start).Seconds()}
	// Switch configurations hold secrets; what hosts answer here (sysfs, ip, ethtool) does not.
	if r.dev.Role != topology.RoleHost {
		ex.Stdout, ex.Stderr = Redact(ex.Stdout), Redact(ex.Stderr)
	}
	if err != nil {
		ex.Error = err.Error()
		ex.ExitCode = -1
	}
	r.add(ex)
	return out, err
}

func (r *recorder) add(ex topology.Exchange) {
	if r.drop {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.dev.Transcript = append(r.dev.Transcript, ex)
}
