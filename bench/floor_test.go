package bench

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/roceaudit/roceaudit/topology"
)

// The floor is what the lab's latency alone makes a run cost. Each flight a lab device sends
// is held for D, so a device costs its round trips on the critical path x D (connection,
// key exchange, authentication, then its commands: a switch's run one after another, a
// host's in parallel batches). The harness measures each class of device alone (one device
// of each name stem and platform, one at a time, timed by the snapshot's own start and end
// so process start-up is not counted), rounds down to whole round trips (what remains is the
// auditor's CPU, not the wire), then schedules every device of the fabric on `concurrency`
// slots, longest first. For identical devices that is exactly
// round trips x D x ceil(devices / concurrency).

// class groups devices that answer the same commands in a generated lab.
func class(d labDevice) string {
	platform := d.Platform
	if platform == "" {
		platform = "linux"
	}
	return strings.TrimRight(d.Name, "0123456789") + "/" + platform
}

type floorProbe struct {
	perClass map[string]time.Duration // round trips x D, per class
	rtts     map[string]int
	floor    time.Duration
}

func probeFloor(t *testing.T, bin string, l *labProcess, latency time.Duration, concurrency int) floorProbe {
	t.Helper()
	reps := map[string]string{}
	var classes []string
	var all []string // class of every device
	for _, d := range l.inv.devices() {
		c := class(d)
		if _, ok := reps[c]; !ok {
			reps[c] = d.Name
			classes = append(classes, c)
		}
		all = append(all, c)
	}
	slices.Sort(classes)
	p := floorProbe{perClass: map[string]time.Duration{}, rtts: map[string]int{}}
	for i, c := range classes {
		inv := l.subInventory(t, fmt.Sprintf("probe-%d.yaml", i), map[string]bool{reps[c]: true})
		snapPath := filepath.Join(l.dir, fmt.Sprintf("probe-%d.json", i))
		u, errs := runChild(t, 5*time.Minute, bin, "collect", "-i", inv, "-o", snapPath, "--concurrency", "1", "--quiet")
		if u.exit != 0 {
			t.Fatalf("probe of %s (%s): exit %d: %s", reps[c], c, u.exit, errs)
		}
		snap, err := topology.OpenSnapshot(snapPath, topology.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		rt := int(snap.Finished.Sub(snap.Started) / latency)
		p.rtts[c] = rt
		p.perClass[c] = time.Duration(rt) * latency
	}
	durations := make([]time.Duration, 0, len(all))
	for _, c := range all {
		durations = append(durations, p.perClass[c])
	}
	p.floor = longestFirst(durations, concurrency)
	return p
}

// longestFirst is the makespan of jobs on n slots, each started on the first free slot,
// longest first.
func longestFirst(jobs []time.Duration, n int) time.Duration {
	jobs = slices.Clone(jobs)
	slices.SortFunc(jobs, func(a, b time.Duration) int { return cmp.Compare(b, a) })
	slots := make([]time.Duration, max(1, min(n, len(jobs))))
	for _, j := range jobs {
		i := slices.Index(slots, slices.Min(slots))
		slots[i] += j
	}
	return slices.Max(slots)
}

func TestLongestFirstIsTheBriefFormulaForIdenticalDevices(t *testing.T) {
	const d = 10 * time.Millisecond
	jobs := make([]time.Duration, 1000)
	for i := range jobs {
		jobs[i] = 30 * d
	}
	if got, want := longestFirst(jobs, 200), 30*d*5; got != want {
		t.Errorf("1000 devices of 30 round trips on 200 slots: %v, want %v", got, want)
	}
	if got, want := longestFirst(jobs[:1001-1000+200], 200), 30*d*2; got != want {
		t.Errorf("201 devices on 200 slots: %v, want %v", got, want)
	}
	// One long switch and many short hosts: the switch alone bounds it.
	mixed := append([]time.Duration{400 * d}, jobs[:10]...)
	if got := longestFirst(mixed, 4); got != 400*d {
		t.Errorf("mixed: %v, want %v", got, 400*d)
	}
}

func TestThpModeReadsTheBracketedChoice(t *testing.T) {
	for in, want := range map[string]string{
		"always [madvise] never\n": "madvise",
		"[always] madvise never":   "always",
		"always madvise [never]":   "never",
		"always madvise never":     "",
		"[always":                  "",
	} {
		if got := thpMode(in); got != want {
			t.Errorf("thpMode(%q) = %q, want %q", in, got, want)
		}
	}
}
