package collectors

import (
	"encoding/json"
	"os"
	"reflect"
	"strconv"
	"testing"

	"github.com/roceaudit/roceaudit/internal/benchcpu"
	"github.com/roceaudit/roceaudit/topology"
)

// fleetUniqueMin is the length from which a string of the rail8 fixture is made unique per
// host in BenchmarkDetachRail8Fleet: an 8-rail audit's hosts each left ~84 strings of their own
// in the interner (excerpts holding counters, GIDs, addresses), 240 bytes long on average.
const fleetUniqueMin = 64

// makeUnique appends tag to every settable string of v at least fleetUniqueMin long.
func makeUnique(v reflect.Value, tag string) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			makeUnique(v.Elem(), tag)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				makeUnique(v.Field(i), tag)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			makeUnique(v.Index(i), tag)
		}
	case reflect.String:
		if v.CanSet() && v.Len() >= fleetUniqueMin {
			v.SetString(v.String() + tag)
		}
	}
}

// BenchmarkDetachRail8Fleet detaches a fleet of 1,000 8-rail hosts through one interner, as
// an audit does: each host is the fixture with its long strings made its own, so the table
// grows to a fleet's size and its look-ups miss the cache as they do in a run (the single-host
// benchmark re-detaches strings the table already holds). Hosts are decoded a batch at a time
// with the timer stopped; cpu-ns/op is per host.
func BenchmarkDetachRail8Fleet(b *testing.B) {
	line, err := os.ReadFile("testdata/rail8-host.json")
	if err != nil {
		b.Fatal(err)
	}
	const fleet, batch = 1000, 100
	devs := make([]topology.Device, batch)
	b.ReportAllocs()
	var (
		in    *interner
		cpu   int64
		n     int
		start = benchcpu.Process()
	)
	for i := 0; b.Loop(); i++ {
		if i%batch == 0 {
			cpu += int64(benchcpu.Process() - start)
			b.StopTimer()
			if i%fleet == 0 {
				in = newInterner(fleet)
			}
			for j := range devs {
				devs[j] = topology.Device{}
				if err := json.Unmarshal(line, &devs[j]); err != nil {
					b.Fatal(err)
				}
				makeUnique(reflect.ValueOf(&devs[j]), "#"+strconv.Itoa(i+j))
			}
			b.StartTimer()
			start = benchcpu.Process()
		}
		in.detachLike(&devs[i%batch], "linux")
		n++
	}
	cpu += int64(benchcpu.Process() - start)
	b.ReportMetric(float64(cpu)/float64(n), "cpu-ns/op")
}
