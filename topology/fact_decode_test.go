package topology

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

// decodeBoth decodes line with the planned decoder and with encoding/json (then trimmed as
// a reader trims), and fails unless both agree. It reports whether the planned one decoded.
func decodeBoth(t testing.TB, line string, opts ReadOptions) bool {
	t.Helper()
	return decodeBothWith(t, newPlanDecoder(opts), line, opts)
}

// decodeBothWith is decodeBoth with a decoder that may have decoded other lines before.
func decodeBothWith(t testing.TB, dec *planDecoder, line string, opts ReadOptions) bool {
	t.Helper()
	var want Device
	wantErr := json.Unmarshal([]byte(line), &want)
	opts.trim(&want)
	var got Device
	err := dec.decodeDevice([]byte(line), &got)
	if errors.Is(err, errFallback) {
		return false
	}
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("planned decoder error %v, encoding/json %v, for %.200s", err, wantErr, line)
	}
	if err == nil && !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		t.Fatalf("planned decoder read\n%s\nencoding/json\n%s", g, w)
	}
	return true
}

func TestPlannedDecoderAgreesWithEncodingJSON(t *testing.T) {
	dev := &Device{Name: "leaf1", Platform: "sonic", Role: RoleSwitch, Reachable: true,
		Error: "tab\there \"quoted\" <html> & \u2028 ünïcode 😀 \\ back",
		Switch: &SwitchFacts{NOS: "SONiC", Ports: []*SwitchPort{{
			Name: "Ethernet0", Aliases: []string{},
			Speed:     Known(400.0, Evidence{Command: "show interfaces status"}),
			MTU:       Known(MTU{Configured: 9216, Kind: "frame", Normalized: 9216}, Evidence{}),
			DSCPToTC:  Known(map[int]int{0: 0, 26: 3, 48: 6}, Evidence{Excerpt: "a\nb"}),
			TCToQueue: Inferred(map[int]int{}, "identity", Evidence{}),
			PFC:       Known(SwitchPFC{RX: []int{3, 4}, TX: nil}, Evidence{}),
			ECN:       Unsupported(map[int]bool{3: true, 4: false}, "why", Evidence{Error: "e"}),
			Scheduler: Known(map[int]string{3: "dwrr"}, Evidence{}),
			Headroom: Known(Headroom{PGs: map[int]PGHeadroom{3: {Profile: "p", Xoff: -1, Size: 7}},
				ASIC: HeadroomASIC{PipelineLatencyKB: 18.5, MACPHYDelayKB: 0.1, PeerResponseKB: 1e-7}}, Evidence{}),
			Counters: Known(map[string]int64{"SAI_PORT_STAT_PFC_3_RX_PKTS": 9223372036854775807, "x": -5}, Evidence{}),
		}}},
		Host: &HostFacts{Ports: []*HostPort{{Netdev: "ens1", Link: Known(Netdev{Addresses: []string{}}, Evidence{}),
			QoS:      Known(HostQoS{PFC: [8]bool{3: true}, DSCPToPrio: map[int]int{26: 3}}, Evidence{}),
			Counters: Known(map[string]int64{"rx_prio3_pause": 4, "rx_bytes": 1, "unread_counter": 2}, Evidence{}),
		}}, NCCLGIDIndex: Unknown[int](Evidence{Error: "no"})},
		Transcript: []Exchange{{Command: "c", Stdout: "o"}},
	}
	b, err := json.Marshal(dev)
	if err != nil {
		t.Fatal(err)
	}
	for _, opts := range []ReadOptions{{}, {CheckedCounters: true}, {Transcripts: true}} {
		if !decodeBoth(t, string(b), opts) {
			t.Fatalf("the planned decoder fell back on what the writer wrote: %s", b)
		}
		var got Device
		if err := newPlanDecoder(opts).decodeDevice(b, &got); err != nil {
			t.Fatal(err)
		}
		if counters := got.Switch.Ports[0].Counters.Value; opts.CheckedCounters != (counters == nil) {
			t.Errorf("%+v: switch-port counters %v", opts, counters)
		}
	}
	// What it does not read exactly as encoding/json would, it leaves to it; the rest agrees.
	for _, line := range []string{
		`{"name":"a","reachable":true,"host":null}`,
		`{"NAME":"case folded"}`,
		`{"name":"lone \ud800 surrogate"}`,
		`{"name":"bad \x` + "\xff" + `utf8"}`,
		`{"switch":{"ports":[{"speed_gbps":{"value":-0,"status":"known"}}]}}`,
		`{"switch":{"ports":[{"mtu":{"value":{"configured":1.5}}}]}}`,
		`{"switch":{"ports":[{"dscp_to_tc":{"value":{"+1":2,"x":3}}}]}}`,
		`{"host":{"ports":[{"qos":{"value":{"pfc":[true,false,true,true,true,true,true,true,true,true]}}}]}}`,
		`{"name":"a"} trailing`,
		`{"name":"a",}`,
		`{"unknown":{"deep":[1,2,{"x":"\"y"}]},"name":"b"}`,
		`{"host":{"ports":[{"counters":{"value":{"rx_prio3_pause":1,"other":2},"status":"known"}}]}}`,
		`{"reachable":"yes"}`,
		`{"name":"a\\b","platform":"a\b","address":"\u003c","error":"<","role":"a\\b"}`,
		`{"switch":{"ports":[{"dscp_to_tc":{"value":{"1":2,"3":"}"}}},{"dscp_to_tc":{"value":{"1":2}}},{"dscp_to_tc":{"value":{"1":2}}}]}}`,
		`{"switch":{"ports":[{"name":"a","aliases":["x","y"]}],"ports":[{"name":"b","aliases":["z"]}]}}`,
		`{"switch":{"ports":[{"name":"00"}]},"host":{"ports":[{"mtu":00}]}}`,
		`{"switch":{"ports":[{"dscp_to_tc":{"value":{"1":2}}},{"dscp_to_tc":{"value":{"3":4},"value":{"1":2}}}]}}`,
	} {
		decodeBoth(t, line, ReadOptions{CheckedCounters: true})
	}
}

// With ROCEAUDIT_SNAPSHOT_LINES naming a file of device lines (a snapshot's devices, one a
// line), every device must decode as encoding/json decodes it, with one decoder for all, as
// a reading worker (its guesses from the devices before).
func TestPlannedDecoderOnSnapshotLines(t *testing.T) {
	path := os.Getenv("ROCEAUDIT_SNAPSHOT_LINES")
	if path == "" {
		t.Skip("ROCEAUDIT_SNAPSHOT_LINES not set")
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	n, planned := 0, 0
	opts := ReadOptions{CheckedCounters: true}
	dec := newPlanDecoder(opts)
	for sc.Scan() {
		line := strings.TrimPrefix(sc.Text(), ",")
		n++
		if decodeBothWith(t, dec, line, opts) {
			planned++
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d devices, %d by the planned decoder", n, planned)
	if planned != n {
		t.Errorf("%d of %d devices fell back", n-planned, n)
	}
}

// Two ports with the same QoS map and excerpt hold one map and one string, however long.
func TestPlannedDecoderSharesRepeatedValues(t *testing.T) {
	excerpt := strings.Repeat("DSCP_TO_TC_MAP|AZURE\n", 20)
	port := func(name string) *SwitchPort {
		return &SwitchPort{Name: name, DSCPToTC: Known(map[int]int{26: 3, 48: 6}, Evidence{Excerpt: excerpt})}
	}
	line, err := json.Marshal(&Device{Name: "leaf1", Switch: &SwitchFacts{Ports: []*SwitchPort{port("Ethernet0"), port("Ethernet4")}}})
	if err != nil {
		t.Fatal(err)
	}
	var d Device
	if err := newPlanDecoder(ReadOptions{}).decodeDevice(line, &d); err != nil {
		t.Fatal(err)
	}
	a, b := d.Switch.Ports[0].DSCPToTC, d.Switch.Ports[1].DSCPToTC
	if reflect.ValueOf(a.Value).UnsafePointer() != reflect.ValueOf(b.Value).UnsafePointer() {
		t.Error("the two ports' DSCP maps are two maps")
	}
	if unsafe.StringData(a.Source.Excerpt) != unsafe.StringData(b.Source.Excerpt) || a.Source.Excerpt != excerpt {
		t.Error("the two ports' excerpts are two strings")
	}
}

// A decoder first compares each fact, string and map with the one at the same place in the
// last device of the same platform: what it reads after devices that differ from the next
// one (other values, a fact more or less, other escapes, another platform between them, a
// key given twice) is still what encoding/json reads.
func TestPlannedDecoderGuessesFromTheLastDevice(t *testing.T) {
	opts := ReadOptions{CheckedCounters: true}
	dec := newPlanDecoder(opts)
	for _, line := range []string{
		`{"name":"gpu1","platform":"linux","host":{"ports":[{"netdev":"ens1","link":{"value":{"name":"ens1","addresses":["10.0.0.1"]},"status":"known","source":{"command":"ip -j addr","excerpt":"a\nb"}},"qos":{"value":{"dscp_to_prio":{"26":3},"tc_tsa":{"0":"ets"}}}}]}}`,
		`{"name":"gpu2","platform":"linux","host":{"ports":[{"netdev":"ens1","link":{"value":{"name":"ens1","addresses":["10.0.0.2"]},"status":"known","source":{"command":"ip -j addr","excerpt":"a\nb"}},"qos":{"value":{"dscp_to_prio":{"26":3},"tc_tsa":{"0":"ets"}}}}]}}`,
		`{"name":"leaf1","platform":"sonic","switch":{"ports":[{"name":"Ethernet0","dscp_to_tc":{"value":{"26":3}}}]}}`,
		// The same texts one place later (an address more), a longer and a shorter text
		// where the last device had a string, a map that starts like the last one.
		`{"name":"gpu3","platform":"linux","host":{"ports":[{"netdev":"ens1","link":{"value":{"name":"ens1","addresses":["10.0.0.3","ens1"]},"status":"known","source":{"command":"ip -j addr","excerpt":"a\nb"}},"qos":{"value":{"dscp_to_prio":{"26":3,"27":3},"tc_tsa":{"0":"ets"}}}}]}}`,
		`{"name":"gpu4","platform":"linux","host":{"ports":[{"netdev":"ens10","link":{"value":{"name":"ens","addresses":["10.0.0.3","ens1"]},"status":"known","source":{"command":"ip -j addr","excerpt":"a\nbc"}},"qos":{"value":{"dscp_to_prio":{"26":3},"tc_tsa":{"0":"ets"}}}}]}}`,
		`{"name":"gpu5","platform":"linux","host":{"ports":[{"netdev":"ens10","link":{"value":{"name":"ens","addresses":["10.0.0.3","ens1"]},"status":"known","source":{"command":"ip -j addr","excerpt":"a\u000abc"}},"qos":{"value":{"dscp_to_prio":{"26" : 3},"tc_tsa":{"0":"strict"}}}}]}}`,
		`{"name":"leaf2","platform":"sonic","switch":{"ports":[{"name":"Ethernet0","dscp_to_tc":{"value":{"26":3}}},{"name":"Ethernet4","dscp_to_tc":{"value":{"26":3}}}]}}`,
		`{"name":"leaf3","platform":"sonic","switch":{"ports":[{"name":"Ethernet0","dscp_to_tc":{"value":{"26":3}}},{"name":"Ethernet4","dscp_to_tc":{"value":{"26":4}}}]}}`,
		`{"name":"leaf4","platform":"sonic","switch":{"ports":[{"name":"Ethernet0","dscp_to_tc":{"value":{"26":3}},"tc_to_queue":{"status":"known"}},{"name":"Ethernet4","dscp_to_tc":{"value":{"26":4}}}]}}`,
		// A fact whose text the last device had at this place, given twice (left to
		// encoding/json, which merges the second into the first), then one without.
		`{"name":"leaf5","platform":"sonic","switch":{"ports":[{"name":"Ethernet0","dscp_to_tc":{"value":{"26":3}},"dscp_to_tc":{"status":"known"}},{"name":"Ethernet4","dscp_to_tc":{"value":{"26":4}}}]}}`,
		`{"name":"leaf6","platform":"sonic","switch":{"ports":[{"name":"Ethernet0","dscp_to_tc":{"value":{"26":3}}},{"name":"Ethernet4","dscp_to_tc":{"value":{"26":4}}}]}}`,
		// ... and a repeated pointer key.
		`{"name":"gpu6","platform":"q","host":{"ports":[{"pfc_prevention_ms":{"value":1}}],"nccl_gid_index":{"status":"known"}}}`,
		`{"name":"gpu7","platform":"q","host":{"nccl_gid_index":{"value":1}},"host":{"nccl_gid_index":{"status":"known"}}}`,
		`{"name":"gpu8","platform":"q","host":{"nccl_gid_index":{"value":1}}}`,
	} {
		repeated := strings.Contains(line, `"leaf5"`) || strings.Contains(line, `"gpu7"`)
		if decoded := decodeBothWith(t, dec, line, opts); decoded == repeated {
			t.Fatalf("decoded %v (a key repeated: %v) %s", decoded, repeated, line)
		}
	}
}

// The intern table finds every string it was given, across its growth, and only those.
func TestInternTableFindsWhatItKept(t *testing.T) {
	tab := newInternTable()
	const n = 20000
	for i := range n {
		raw := []byte(fmt.Sprintf("s\\n%d", i))
		if _, ok, _, _ := tab.find(raw); ok {
			t.Fatalf("%s found before it was added", raw)
		}
		_, _, slot, hash := tab.find(raw)
		tab.add(decodedString{raw: string(raw), val: fmt.Sprintf("s\n%d", i)}, slot, hash)
	}
	if len(tab.slots) < 2*n {
		t.Errorf("%d slots for %d strings", len(tab.slots), n)
	}
	for i := range n {
		ds, ok, _, _ := tab.find([]byte(fmt.Sprintf("s\\n%d", i)))
		if !ok || ds.val != fmt.Sprintf("s\n%d", i) || ds.raw != fmt.Sprintf("s\\n%d", i) {
			t.Fatalf("string %d: %q %q %v", i, ds.raw, ds.val, ok)
		}
	}
	if _, ok, _, _ := tab.find([]byte("s\\n")); ok {
		t.Error("found a string never added")
	}
}
