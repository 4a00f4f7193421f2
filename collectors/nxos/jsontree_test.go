package nxos

import (
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/collectors/internal/fuzzseed"
)

// decodeTreeStd is what decodeTree was: encoding/json's Decoder with UseNumber, one value.
func decodeTreeStd(s string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("more than one top-level value")
	}
	return v, nil
}

var treeCases = []string{
	``, ` `, `{}`, `[]`, `{"a":1}`, `{"a":[1,2,{"b":null}],"c":true,"d":false}`, ` {"a" : "x" } `,
	`-0`, `0`, `01`, `1.`, `1.5e+3`, `1E-2`, `-`, `1e`, `.5`, `12345678901234567890`,
	`"a\"b"`, `"\u00e9\ud83d\ude00"`, `"\ud800"`, `"é"`, "\"\xff\"", "\"a\tb\"", `"\x"`, `"abc`,
	`{"a":1,}`, `[1,]`, `[1 2]`, `{"a" 1}`, `{1:2}`, `nul`, `nullx`, `truefalse`, `[true,false,null]`,
	`{"a":1}{"b":2}`, `{"a":1} x`, `{"a":1,"a":2}`, "{\"k\xff\":1}", `{"\u0041":"\n"}`, `[[[[]]]]`,
	"\t\r\n[1]\n", `"`, `[`, `{`, `{"a"`, `{"a":`, `[1`, `[-]`, `-01`, `2e+`, `"\u12"`,
}

func treesAgree(t *testing.T, s string) {
	t.Helper()
	got, gerr := decodeTree(s)
	want, werr := decodeTreeStd(s)
	if (gerr != nil) != (werr != nil) || !reflect.DeepEqual(got, want) {
		t.Errorf("%q:\n got %#v, %v\nwant %#v, %v", s, got, gerr, want, werr)
	}
}

func TestDecodeTreeAgreesWithEncodingJSON(t *testing.T) {
	for _, s := range treeCases {
		treesAgree(t, s)
	}
	for _, s := range queuingCases(t) {
		treesAgree(t, s)
	}
}

func FuzzDecodeTreeAgreesWithEncodingJSON(f *testing.F) {
	seeds := append(fuzzseed.Minis(f, readSeed, CmdQueuingJSON, 2, "healthy", "broken", "aiml", "portchannel"), fuzzseed.Minis(f, readSeed, CmdInterface, 1, "healthy")...)
	addSeeds(f, append(append(seeds, treeCases...), queuingCases(f)...)...)
	f.Fuzz(treesAgree)
}
