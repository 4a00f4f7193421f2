package reports

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/topology"
)

// appendResultJSON writes the bytes newJSONEncoder writes for a result, whatever its texts
// hold (escapes, control bytes, U+2028, invalid UTF-8) and whichever fields are empty.
func FuzzResultJSON(f *testing.F) {
	f.Add("HOST-MTU", "pass", "error", "gpu01", "ens1f0np0", "leaf1:Ethernet0", "", "9000", "MTU 9000", "", "ip -d -j link", "mtu 9000", "", "ip link set mtu 9000", uint8(1))
	f.Add("", "", "", "", "", "", "", "", "", "", "", "", "", "", uint8(0))
	f.Add("a\"b\\c", "\b\f\n\r\t\x00\x1f\x7f", "<>&", "\u2028\u2029", "\xff\xfe\xc2", "é中", "gpu01:p0->gpu02:p0", "x", "y", "z", "", "", "", "", uint8(2))
	f.Add("c", "s", "v", "d", "", "", "", "", "", "", "", "", "e", "r", uint8(1))
	f.Fuzz(func(t *testing.T, check, status, sev, dev, iface, peer, path, expected, actual, msg, cmd, excerpt, evErr, fix string, evidence uint8) {
		res := checks.Result{Check: check, Status: checks.Status(status), Severity: checks.Severity(sev), Device: dev, Interface: iface,
			Peer: peer, Path: path, Expected: expected, Actual: actual, Message: msg, Remediation: fix}
		switch evidence % 3 {
		case 1:
			res.Evidence = &topology.Evidence{Command: cmd, Excerpt: excerpt, Error: evErr}
		case 2:
			res.Evidence = &topology.Evidence{}
		}
		var want bytes.Buffer
		if err := newJSONEncoder(&want, "    ").Encode(&res); err != nil {
			t.Fatal(err)
		}
		got := appendResultJSON(nil, &res)
		if w := bytes.TrimSuffix(want.Bytes(), []byte("\n")); !bytes.Equal(got, w) {
			t.Errorf("got\n%s\nwant\n%s", got, w)
		}
	})
}

// The same comparison over random texts drawn from what needs escaping, every run.
func TestResultJSONMatchesEncoder(t *testing.T) {
	pieces := []string{"a", "Z", " ", "\"", "\\", "\b", "\f", "\n", "\r", "\t", "\x00", "\x1f", "\x7f", "<", ">", "&",
		"\u2028", "\u2029", "\xff", "\xc2", "\xe2\x80", "é", "中", "😀", "\u00a0", "\u0085", "->", ":"}
	rng := rand.New(rand.NewPCG(1, 2))
	text := func() string {
		var b []byte
		for range rng.IntN(6) {
			b = append(b, pieces[rng.IntN(len(pieces))]...)
		}
		return string(b)
	}
	for n := range 20000 {
		res := checks.Result{Check: text(), Status: checks.Status(text()), Severity: checks.Severity(text()), Device: text(),
			Interface: text(), Peer: text(), Path: text(), Expected: text(), Actual: text(), Message: text(), Remediation: text()}
		if n%3 > 0 {
			res.Evidence = &topology.Evidence{Command: text(), Excerpt: text(), Error: text()}
		}
		var want bytes.Buffer
		if err := newJSONEncoder(&want, "    ").Encode(&res); err != nil {
			t.Fatal(err)
		}
		if got, w := appendResultJSON(nil, &res), bytes.TrimSuffix(want.Bytes(), []byte("\n")); !bytes.Equal(got, w) {
			t.Fatalf("got\n%s\nwant\n%s", got, w)
		}
	}
}

// Every field of a result, set alone, is written as the encoder writes it and seen by
// sanitizing: a field added to checks.Result or topology.Evidence and missed by the hand
// lists in appendResultJSON or resultNeedsCleaning fails here.
func TestEveryResultFieldIsWrittenAndCleaned(t *testing.T) {
	check := func(name string, res checks.Result) {
		t.Helper()
		var want bytes.Buffer
		if err := newJSONEncoder(&want, "    ").Encode(&res); err != nil {
			t.Fatal(err)
		}
		if got, w := appendResultJSON(nil, &res), bytes.TrimSuffix(want.Bytes(), []byte("\n")); !bytes.Equal(got, w) {
			t.Errorf("%s: got\n%s\nwant\n%s", name, got, w)
		}
		// Status and severity are the engine's own words, never a device's: not cleaned.
		if !resultNeedsCleaning(&res) && name != "Status" && name != "Severity" {
			t.Errorf("%s: a control character in it is not seen by sanitizing", name)
		}
	}
	const text = "x\x1b[31m"
	rt := reflect.TypeFor[checks.Result]()
	for i := range rt.NumField() {
		f := rt.Field(i)
		var res checks.Result
		v := reflect.ValueOf(&res).Elem().Field(i)
		switch {
		case f.Type.Kind() == reflect.String:
			v.SetString(text)
			check(f.Name, res)
		case f.Type == reflect.TypeFor[*topology.Evidence]():
			et := f.Type.Elem()
			for j := range et.NumField() {
				ev := &topology.Evidence{}
				ef := reflect.ValueOf(ev).Elem().Field(j)
				if ef.Kind() != reflect.String {
					t.Fatalf("Evidence.%s is a %s: teach appendResultJSON and resultNeedsCleaning", et.Field(j).Name, ef.Kind())
				}
				ef.SetString(text)
				check("Evidence."+et.Field(j).Name, checks.Result{Evidence: ev})
			}
		default:
			t.Fatalf("Result.%s is a %s: teach appendResultJSON and resultNeedsCleaning", f.Name, f.Type)
		}
	}
}
