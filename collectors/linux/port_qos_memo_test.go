package linux

import (
	"context"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/collectors"
)

// Two ports of a run printing the same mlnx_qos get one parse: equal to a fresh one, its maps
// shared, and none of it a piece of either device's output (the memo outlives them). Outside
// a run nothing is remembered; another run remembers its own.
func TestMlnxQosParsesAreSharedByOutput(t *testing.T) {
	if qosParsesOf(context.Background()) != nil {
		t.Fatal("parses remembered outside a collection run")
	}
	run := collectors.WithRunMemo(context.Background(), &collectors.RunMemo{})
	mlnxQosParses := qosParsesOf(run)
	if qosParsesOf(run) != mlnxQosParses || qosParsesOf(collectors.WithRunMemo(context.Background(), &collectors.RunMemo{})) == mlnxQosParses {
		t.Fatal("a run's parses are not its own")
	}
	text := readFixture(t, "ofed-lossless", "mlnx_qos.ens1f0np0")
	a, b := strings.Clone(text), strings.Clone(text)
	pa, pb := mlnxQosParses.Get(a), mlnxQosParses.Get(b)
	if pa != pb {
		t.Fatal("the same output parsed twice")
	}
	q, ex, err := readMlnxQos(text, true)
	if err != nil || pa.err != nil {
		t.Fatalf("parse: %v, memo: %v", err, pa.err)
	}
	if d := cmp.Diff(q, pa.q); d != "" {
		t.Errorf("memo's parse (-fresh +memo):\n%s", d)
	}
	if ex != pa.excerpts {
		t.Errorf("excerpts %+v, fresh %+v", pa.excerpts, ex)
	}
	inside := func(s, buf string) bool {
		p, base := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.StringData(buf)))
		return s != "" && p >= base && p < base+uintptr(len(buf))
	}
	for _, s := range []string{pa.stdout, pa.excerpts.qos, pa.excerpts.dcbx, pa.q.Trust} {
		if inside(s, a) || inside(s, b) {
			t.Errorf("%.40q is a piece of a device's output", s)
		}
	}
	if other := mlnxQosParses.Get(readFixture(t, "dual-port", "mlnx_qos.ens1f1np1")); other == pa || other.q.Trust != "pcp" {
		t.Errorf("another output got the first's parse (trust %q)", other.q.Trust)
	}
}
