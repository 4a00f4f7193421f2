package collectors

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/roceaudit/roceaudit/internal/benchcpu"
	"github.com/roceaudit/roceaudit/topology"
)

// within reports whether s's bytes lie inside buf's.
func within(s, buf string) bool {
	if s == "" {
		return false
	}
	p, b := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.StringData(buf)))
	return p >= b && p < b+uintptr(len(buf))
}

// After detach, a device's facts are equal to what they were but no string shares memory
// with the output it was sliced from, and short names are one copy across devices.
func TestDetachCopiesStringsOutOfOutputs(t *testing.T) {
	out := "NIC statistics:\n     rx_prio3_pause: 7\n     tx_prio3_pause: 9\n" + strings.Repeat("x", 200) + "\n"
	name := func(i int) string { return strings.Fields(out)[2+2*i][:len("rx_prio3_pause")] }
	excerpt := out[strings.Index(out, "xxx"):strings.LastIndex(out, "x")]
	mk := func() *topology.Device {
		return &topology.Device{Name: out[:3], Host: &topology.HostFacts{Ports: []*topology.HostPort{{
			Netdev:   out[4:14],
			Counters: topology.Known(map[string]int64{name(0): 7, name(1): 9}, topology.Evidence{Command: out[:3], Excerpt: excerpt}),
		}}}}
	}
	a, b := mk(), mk()
	want := mk()
	in := newInterner(1)
	in.detach(a)
	in.detach(b)
	if !reflect.DeepEqual(a, want) || !reflect.DeepEqual(b, want) {
		t.Fatalf("detach changed the facts:\n got %+v\nwant %+v", a.Host.Ports[0], want.Host.Ports[0])
	}
	p := a.Host.Ports[0]
	held := []string{a.Name, p.Netdev, p.Counters.Source.Command, p.Counters.Source.Excerpt}
	for k := range p.Counters.Value {
		held = append(held, k)
	}
	for _, s := range held {
		if within(s, out) {
			t.Errorf("%q still points into the command output", s)
		}
	}
	if unsafe.StringData(a.Host.Ports[0].Netdev) != unsafe.StringData(b.Host.Ports[0].Netdev) {
		t.Error("a short name is not shared between devices")
	}
	if unsafe.StringData(a.Host.Ports[0].Counters.Source.Excerpt) != unsafe.StringData(b.Host.Ports[0].Counters.Source.Excerpt) {
		t.Error("an excerpt equal on two devices is not shared between them")
	}
}

// A string too long to intern is still copied once per place its bytes are: two facts that
// shared it before detach share one copy after, and another device's equal text gets its own.
func TestDetachCopiesALongStringOncePerDevice(t *testing.T) {
	out := strings.Repeat("pfc_prio3 enabled\n", internMax/10)
	mk := func() *topology.Device {
		ex := out[1:]
		return &topology.Device{Name: "h", Host: &topology.HostFacts{Ports: []*topology.HostPort{
			{Netdev: "a", Counters: topology.Known(map[string]int64{}, topology.Evidence{Excerpt: ex})},
			{Netdev: "b", Counters: topology.Known(map[string]int64{}, topology.Evidence{Excerpt: ex})},
		}}}
	}
	a, b := mk(), mk()
	in := newInterner(1)
	in.detach(a)
	in.detach(b)
	exA0, exA1, exB := a.Host.Ports[0].Counters.Source.Excerpt, a.Host.Ports[1].Counters.Source.Excerpt, b.Host.Ports[0].Counters.Source.Excerpt
	if exA0 != out[1:] || exB != out[1:] {
		t.Fatal("detach changed a long excerpt")
	}
	if within(exA0, out) || within(exB, out) {
		t.Error("a long excerpt still points into the command output")
	}
	if unsafe.StringData(exA0) != unsafe.StringData(exA1) {
		t.Error("two facts of one device that shared a long excerpt got a copy each")
	}
	if unsafe.StringData(exA0) == unsafe.StringData(exB) {
		t.Error("a string too long to intern was shared between devices")
	}
}

// BenchmarkDetachHost is detach of a dual-port host's facts as the lab's hosts report them.
func BenchmarkDetachHost(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("NIC statistics:\n")
	for i := range 250 {
		fmt.Fprintf(&sb, "     rx_prio%d_counter_%d: %d\n", i%8, i, i)
	}
	out := sb.String()
	b.ReportAllocs()
	in := newInterner(1)
	for b.Loop() {
		b.StopTimer()
		dev := &topology.Device{Name: "gpu001", Host: &topology.HostFacts{}}
		for range 2 {
			m, _ := parseCounters(out)
			dev.Host.Ports = append(dev.Host.Ports, &topology.HostPort{Netdev: "ens1f0np0",
				Counters: topology.Known(m, topology.Evidence{Command: "ethtool -S ens1f0np0", Excerpt: out[:200]})})
		}
		b.StartTimer()
		in.detach(dev)
	}
}

func parseCounters(out string) (map[string]int64, error) {
	m := map[string]int64{}
	for _, l := range strings.Split(out, "\n")[1:] {
		if k, v, ok := strings.Cut(strings.TrimSpace(l), ": "); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return nil, err
			}
			m[k] = n
		}
	}
	return m, nil
}

// Equal number-keyed maps (QoS tables) on two devices become one shared map, its strings
// detached from the output; a map that differs keeps its own.
func TestDetachSharesEqualNumberMaps(t *testing.T) {
	out := "strict dwrr"
	mk := func(tc int) *topology.Device {
		return &topology.Device{Name: "s", Switch: &topology.SwitchFacts{Ports: []*topology.SwitchPort{{
			Name:      "Ethernet0",
			DSCPToTC:  topology.Known(map[int]int{26: tc, 48: 6}, topology.Evidence{}),
			ECN:       topology.Known(map[int]bool{3: true}, topology.Evidence{}),
			Scheduler: topology.Known(map[int]string{3: out[7:], 6: out[:6]}, topology.Evidence{}),
		}}}}
	}
	a, b, c := mk(3), mk(3), mk(4)
	in := newInterner(1)
	for _, d := range []*topology.Device{a, b, c} {
		in.detach(d)
	}
	if !reflect.DeepEqual(a, mk(3)) || !reflect.DeepEqual(c, mk(4)) {
		t.Fatal("detach changed the maps")
	}
	pa, pb, pc := a.Switch.Ports[0], b.Switch.Ports[0], c.Switch.Ports[0]
	if reflect.ValueOf(pa.DSCPToTC.Value).UnsafePointer() != reflect.ValueOf(pb.DSCPToTC.Value).UnsafePointer() {
		t.Error("equal DSCP maps are not shared")
	}
	if reflect.ValueOf(pa.Scheduler.Value).UnsafePointer() != reflect.ValueOf(pb.Scheduler.Value).UnsafePointer() ||
		reflect.ValueOf(pa.ECN.Value).UnsafePointer() != reflect.ValueOf(pb.ECN.Value).UnsafePointer() {
		t.Error("equal scheduler or ECN maps are not shared")
	}
	if reflect.ValueOf(pa.DSCPToTC.Value).UnsafePointer() == reflect.ValueOf(pc.DSCPToTC.Value).UnsafePointer() {
		t.Error("different DSCP maps share one")
	}
	for _, v := range pa.Scheduler.Value {
		if within(v, out) {
			t.Errorf("scheduler %q still points into the output", v)
		}
	}
}

// Map values that would run together in a naive encoding stay apart.
func TestDetachKeepsStringMapsApart(t *testing.T) {
	a := map[int]string{1: "a,2:b"}
	b := map[int]string{1: "a", 2: "b"}
	in := newInterner(1)
	var key []byte
	sa := shareMap(in, &key, stringMaps, a, in.copyOf)
	sb := shareMap(in, &key, stringMaps, b, in.copyOf)
	if !reflect.DeepEqual(sa, a) || !reflect.DeepEqual(sb, b) {
		t.Fatalf("shared %v and %v, want %v and %v", sa, sb, a, b)
	}
}

// Equal maps share one copy and unequal ones do not, whatever order they were built in and
// whether their keys are small (DSCP, priorities) or not.
func TestShareMapSharesEqualMaps(t *testing.T) {
	in := newInterner(1)
	maps := []map[int]int{
		{0: 1, 3: 3, 63: 7},
		{63: 7, 3: 3, 0: 1}, // the first, built in another order
		{0: 1, 3: 3, 64: 7},
		{64: 7, 3: 3, 0: 1},
		{-1: 1, 3: 3},
		{3: 3, -1: 1},
		{3: 3},
		{},
	}
	var (
		got []map[int]int
		key []byte
	)
	for _, m := range maps {
		s := shareMap(in, &key, intMaps, m, same[int])
		if !reflect.DeepEqual(s, m) {
			t.Fatalf("shareMap(%v) = %v", m, s)
		}
		got = append(got, s)
	}
	ptr := func(m map[int]int) unsafe.Pointer { return reflect.ValueOf(m).UnsafePointer() }
	for i := range got {
		for j := range got {
			if sameMap := ptr(got[i]) == ptr(got[j]); sameMap != reflect.DeepEqual(maps[i], maps[j]) {
				t.Errorf("maps %v and %v: shared %v", maps[i], maps[j], sameMap)
			}
		}
	}
}

// BenchmarkDetachRail8Host detaches a real 8-rail host's facts (a device line of a generated
// lab's snapshot) through one interner, as a run detaches host after host. Each iteration
// detaches a freshly decoded host; they are decoded a batch at a time with the timer stopped,
// so stopping it does not cost more than the detach being measured. cpu-ns/op is the process's
// CPU time while the timer ran, steadier than wall time on a shared machine.
func BenchmarkDetachRail8Host(b *testing.B) {
	line, err := os.ReadFile("testdata/rail8-host.json")
	if err != nil {
		b.Fatal(err)
	}
	const batch = 64
	devs := make([]topology.Device, batch)
	in := newInterner(1)
	b.ReportAllocs()
	var (
		i, n  = batch, 0
		cpu   time.Duration
		start = benchcpu.Process()
	)
	for b.Loop() {
		if i == batch {
			cpu += benchcpu.Process() - start
			b.StopTimer()
			for j := range devs {
				devs[j] = topology.Device{}
				if err := json.Unmarshal(line, &devs[j]); err != nil {
					b.Fatal(err)
				}
			}
			i = 0
			b.StartTimer()
			start = benchcpu.Process()
		}
		in.detach(&devs[i])
		i++
		n++
	}
	cpu += benchcpu.Process() - start
	b.ReportMetric(float64(cpu)/float64(n), "cpu-ns/op")
}

// Devices of one kind are compared with the last one detached, place by place: an equal
// string there is that device's copy, a different one (or one that moved) is interned as
// usual, and nothing of either device's output is kept. A run's strings never reach the
// next run's interner.
func TestDetachLikeReusesTheLastDevicesStrings(t *testing.T) {
	mk := func(netdev, excerpt string) (*topology.Device, string) {
		out := "NIC statistics:\n" + netdev + "\n" + excerpt + "\n"
		i := strings.Index(out, excerpt)
		return &topology.Device{Name: "h", Host: &topology.HostFacts{Ports: []*topology.HostPort{{
			Netdev:   out[16 : 16+len(netdev)],
			Counters: topology.Known(map[string]int64{}, topology.Evidence{Command: out[:3], Excerpt: out[i : i+len(excerpt)]}),
		}}}}, out
	}
	in := newInterner(4)
	a, outA := mk("ens1np0", "rx_prio3_pause: 1")
	b, outB := mk("ens1np0", "rx_prio3_pause: 2") // the excerpt differs at its place
	c, outC := mk("rx_prio3_pause: 1", "ens1np0") // both strings moved
	for _, d := range []*topology.Device{a, b, c} {
		in.detachLike(d, "linux")
	}
	pa, pb, pc := a.Host.Ports[0], b.Host.Ports[0], c.Host.Ports[0]
	if pb.Netdev != "ens1np0" || pb.Counters.Source.Excerpt != "rx_prio3_pause: 2" ||
		pc.Netdev != "rx_prio3_pause: 1" || pc.Counters.Source.Excerpt != "ens1np0" {
		t.Fatalf("values changed: b %q %q, c %q %q", pb.Netdev, pb.Counters.Source.Excerpt, pc.Netdev, pc.Counters.Source.Excerpt)
	}
	if unsafe.StringData(pa.Netdev) != unsafe.StringData(pb.Netdev) || unsafe.StringData(pc.Netdev) != unsafe.StringData(pa.Counters.Source.Excerpt) {
		t.Error("equal strings are not one copy, at their place or moved")
	}
	for _, s := range []string{pa.Netdev, pa.Counters.Source.Excerpt, pb.Netdev, pb.Counters.Source.Excerpt, pc.Netdev, pc.Counters.Source.Excerpt} {
		for _, out := range []string{outA, outB, outC} {
			if within(s, out) {
				t.Errorf("%q still points into a command output", s)
			}
		}
	}
	next := newInterner(1)
	d, _ := mk("ens1np0", "rx_prio3_pause: 1")
	next.detachLike(d, "linux")
	if _, ok := next.m["ens1np0"]; !ok {
		t.Error("a new run's interner did not intern a string the last run's detacher held")
	}
}
