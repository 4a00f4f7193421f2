package topology

import (
	"encoding/json"
	"strings"
	"testing"
)

// plainASCII stops at the first byte a string reader must look at, whatever its place in
// a word of eight.
func TestPlainASCIIStopsAtEverySpecialByte(t *testing.T) {
	for _, special := range []byte{'"', '\\', 0x00, 0x1f, 0x80, 0xc3, 0xff} {
		for at := range 20 {
			b := []byte(strings.Repeat("a ~}", 6)) // 24 plain bytes, 0x20 and 0x7e included
			b[at] = special
			for from := 0; from <= at; from++ {
				if got := plainASCII(b, from); got > at {
					t.Fatalf("byte %#x at %d, from %d: skipped to %d", special, at, from, got)
				}
			}
		}
	}
	plain := []byte(strings.Repeat("Ethernet0 ", 5))
	if got := plainASCII(plain, 3); got < len(plain)-7 {
		t.Errorf("plain text: stopped at %d of %d", got, len(plain))
	}
}

func TestValidNumberIsJSONsGrammar(t *testing.T) {
	for _, n := range []string{"0", "-0", "7", "-12", "1.5", "0.25", "1e9", "1E+9", "2.5e-3", "1e999",
		"", "-", "01", "1.", ".5", "1e", "1e+", "+1", "--1", "1-2", "1.2.3", "0x1", "1ee2", "-.5"} {
		want := json.Valid([]byte(n))
		if got := validNumber([]byte(n)); got != want {
			t.Errorf("validNumber(%q) = %v, json.Valid says %v", n, got, want)
		}
	}
}

// Whatever the line, the planned decoder reads what encoding/json reads, or leaves the line
// to it. (What a reader drops unread, such as switch-port counters for checking, is only
// checked to be JSON, so those options are left out.)
func FuzzPlannedDecoder(f *testing.F) {
	for _, seed := range []string{
		`{"name":"leaf1","switch":{"ports":[{"name":"Ethernet0","speed_gbps":{"value":400,"status":"known","source":{"command":"show interfaces status","excerpt":"Ethernet0  400G"}},"counters":{"value":{"a":1,"b":-2.5e3},"status":"known"}}]}}`,
		`{"name":"gpu1","host":{"ports":[{"netdev":"ens1","counters":{"value":{"rx_prio3_pause":4,"rx_bytes":1},"status":"known"}}]}}`,
		`{"unknown":{"deep":[1,2,{"x":"\"y"}]},"name":"b\u00e9\\"}`,
		`{"switch":{"ports":[{"dscp_to_tc":{"value":{"1":2,"3":4}}},{"dscp_to_tc":{"value":{"1":2,"3":4}}}]}}`,
		`{"name":"a long name that spans several words of eight bytes","error":"tab\there"}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		decodeBoth(t, line, ReadOptions{Transcripts: true})
	})
}

// Whatever the line the decoder read before (which primes its guesses, see
// fact_decode_repeat.go), it reads the next one as encoding/json does, or leaves it to it.
func FuzzPlannedDecoderAfterAnother(f *testing.F) {
	for _, seed := range [][2]string{
		{`{"name":"a","platform":"p","error":"x\ny","switch":{"ports":[{"dscp_to_tc":{"value":{"1":2,"3":4}}}]}}`,
			`{"name":"b","platform":"p","error":"x\ny","switch":{"ports":[{"dscp_to_tc":{"value":{"1":2,"3":4,"5":6}}}]}}`},
		{`{"name":"a","platform":"p","address":"ab"}`, `{"name":"a","platform":"p","address":"ab\"}`},
		{`{"name":"a","platform":"p","address":"ab"}`, `{"name":"a","platform":"p","address":"abc"}`},
		{`{"platform":"p","switch":{"ports":[{"dscp_to_tc":{"value":{"1":2}}}]}}`, `{"platform":"p","switch":{"ports":[{"tc_to_queue":{"value":{"1":2}}}]}}`},
		{`{"platform":"p","switch":{"ports":[{"mtu":{"value":{"configured":1}}},{"mtu":{"status":"known"}}]}}`,
			`{"platform":"p","switch":{"ports":[{"mtu":{"value":{"configured":1}},"mtu":{"status":"known"}}]}}`},
		{`{"platform":"p","host":{"ports":[{"pfc_prevention_ms":{"value":1}}],"nccl_gid_index":{"status":"known"}}}`,
			`{"platform":"p","host":{"nccl_gid_index":{"value":1}},"host":{"nccl_gid_index":{"status":"known"}}}`},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, first, next string) {
		opts := ReadOptions{Transcripts: true}
		dec := newPlanDecoder(opts)
		var d Device
		_ = dec.decodeDevice([]byte(first), &d)
		decodeBothWith(t, dec, next, opts)
	})
}
