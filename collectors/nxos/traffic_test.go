package nxos

import (
	"reflect"
	"testing"
)

// The row's traffic fields carry the NX-OS names trafficCounters gives, in its order: the
// parser keeps each field under the name at its index, and evidence quotes the NX-OS name.
func TestTrafficCountersMatchTheRow(t *testing.T) {
	rt := reflect.TypeFor[interfaceRow]()
	for i, f := range []string{"InBytes", "OutBytes", "InUcast", "OutUcast"} {
		sf, ok := rt.FieldByName(f)
		if !ok {
			t.Fatalf("interfaceRow has no field %s", f)
		}
		if tag := sf.Tag.Get("json"); tag != trafficCounters[i].nxos {
			t.Errorf("field %s reads %q, but trafficCounters[%d] names it %q", f, tag, i, trafficCounters[i].nxos)
		}
	}
}
