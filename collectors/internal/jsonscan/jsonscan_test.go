package jsonscan

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// decode builds what encoding/json's Unmarshal into any makes of the value at sc, numbers
// as float64, or false where the scanner declines.
func decode(sc *Scanner) (any, bool) {
	switch c := sc.Peek(); {
	case c == '{':
		m := map[string]any{}
		ok := sc.Object(func(key string) bool {
			v, ok := decode(sc)
			m[key] = v
			return ok
		})
		return m, ok
	case c == '[':
		a := []any{}
		ok := sc.Array(func() bool {
			v, ok := decode(sc)
			a = append(a, v)
			return ok
		})
		return a, ok
	case c == '"':
		return sc.Str()
	case c == '-' || '0' <= c && c <= '9':
		raw, ok := sc.Number()
		if !ok {
			return nil, false
		}
		var f float64
		if json.Unmarshal([]byte(raw), &f) != nil {
			return nil, false
		}
		return f, true
	default:
		raw, ok := sc.Raw()
		if !ok {
			return nil, false
		}
		var v any
		if json.Unmarshal([]byte(raw), &v) != nil {
			return nil, false // a number out of float64's range (Skip checked the grammar)
		}
		return v, true
	}
}

var seeds = []string{
	`{}`, ` { "a" : 1 , "b" : [ 1 , 2.5e-3 , "x" , true , false , null , { } , [ ] ] } `,
	`{"egress-queue-stats":{"0":{"tx-bytes":12,"tx-frames":"7"}}}`,
	`{"a":"\u00e9\n","b\"":1}`, `{"a":"é"}`, "{\"a\":\"\xff\"}", "{\"\xff\":1}",
	`{"a":01}`, `{"a":1.}`, `{"a":-}`, `{"a":1e}`, `{"a":[1,]}`, `{"a":1,}`, `{"a":1}x`, `{"a" 1}`,
	`{"a":"\x"}`, `{"a":"\u12G4"}`, "{\"a\":\"\t\"}", `{"a":tru}`, `{"a":nulll}`, `[1,2]`, `"s"`, `-0`, `1E+2`,
	`{"a":{"a":{"a":{}}}}`, strings.Repeat(`[`, 600) + strings.Repeat(`]`, 600),
}

// FuzzScanner holds the scanner to encoding/json: a document it walks is valid JSON and
// decodes to the same values, and valid JSON is skipped whole unless nested past maxDepth.
func FuzzScanner(f *testing.F) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		valid := json.Valid([]byte(s))
		sc := New(s)
		skipped := sc.Skip() && sc.End()
		if skipped && !valid {
			t.Fatalf("Skip accepted invalid JSON %q", s)
		}
		if valid && !skipped && !deep(s) {
			t.Fatalf("Skip declined valid JSON %q", s)
		}
		sc = New(s)
		got, ok := decode(sc)
		if !ok || !sc.End() {
			return
		}
		if !valid {
			t.Fatalf("the scanner walked invalid JSON %q", s)
		}
		var want any
		if json.Unmarshal([]byte(s), &want) != nil {
			return // a number out of float64's range
		}
		// DeepEqual first: cmp is exponential in deeply nested lists
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("%q decodes differently (-encoding/json +scanner):\n%s", s, cmp.Diff(want, got))
		}
	})
}

// deep says whether s nests more than maxDepth levels (an estimate that counts brackets in
// strings too, which only makes the fuzz target more lenient).
func deep(s string) bool {
	n, most := 0, 0
	for _, c := range s {
		switch c {
		case '{', '[':
			n++
			most = max(most, n)
		case '}', ']':
			n--
		}
	}
	return most > maxDepth
}

func TestDeclines(t *testing.T) {
	for _, s := range []string{`{"a\u0062":1}`, "{\"\xff\":1}", `{"a":1,}`, `{"a":1`, `{"a"}`} {
		if New(s).Object(func(string) bool { return true }) {
			t.Errorf("Object accepted %q", s)
		}
	}
	for _, s := range []string{`"a\nb"`, "\"\xff\"", `"a`, `1`} {
		if _, ok := New(s).Str(); ok {
			t.Errorf("Str accepted %q", s)
		}
	}
}

func TestStructDeclinesWhatEncodingJSONFolds(t *testing.T) {
	names := []string{"mtu", "eth_speed"}
	for _, c := range []struct {
		doc string
		ok  bool
	}{
		{`{"mtu":1,"eth_speed":"x","other":[1]}`, true}, {`{"MTU":1}`, false}, {`{"Eth_Speed":1}`, false},
		{`{"mtu":1,"mtu":2}`, false}, {`{"mſu":1}`, false}, {`{"mtu2":1}`, true}, {`null`, false},
	} {
		sc := New(c.doc)
		if got := sc.Struct(names, func(int) bool { return sc.Skip() }) && sc.End(); got != c.ok {
			t.Errorf("Struct(%s) = %v, want %v", c.doc, got, c.ok)
		}
	}
}

// Int64 takes what encoding/json stores in an int64 field and declines its errors.
func TestInt64(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"12", 12, true}, {"-0", 0, true}, {"-9223372036854775808", -9223372036854775808, true},
		{"9223372036854775808", 0, false}, {"1.0", 0, false}, {"1e3", 0, false}, {`"1"`, 0, false}, {"null", 0, false},
	} {
		got, ok := New(c.in).Int64()
		if ok != c.ok || ok && got != c.want {
			t.Errorf("Int64(%s) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}
