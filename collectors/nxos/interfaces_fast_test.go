package nxos

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/collectors/internal/fuzzseed"
)

func interfaceCases(t testing.TB) []string {
	var cases []string
	for _, s := range []string{"healthy", "broken", "aiml", "portchannel"} {
		if b, err := readSeed(s, CmdInterface); err == nil {
			var c bytes.Buffer
			if err := json.Compact(&c, []byte(b)); err != nil {
				t.Fatal(err)
			}
			cases = append(cases, b, c.String(), c.String()+" ", c.String()+"x")
		}
	}
	if len(cases) == 0 {
		t.Fatal("no recorded reply")
	}
	row := `{"interface":"Ethernet1/1","state":"up","eth_mtu":"9216","eth_bw":"400000000","eth_speed":"400 Gb/s","eth_in_flowctrl":"off","eth_out_flowctrl":"on","eth_inpause":"1","eth_outpause":"2","eth_inbytes":"3","desc":"x"}`
	wrap := func(rows string) string { return `{"TABLE_interface":{"ROW_interface":` + rows + `}}` }
	cases = append(cases, wrap(row), wrap("["+row+","+row+"]"), wrap("[]"), wrap("[null]"), wrap(`{}`), `{"TABLE_interface":{}}`,
		`{"output":{"body":`+wrap(row)+`}}`, `{"Output":"x",`+wrap(row)[1:], `{"table_interface":{"ROW_interface":`+row+`}}`,
		`{"TABLE_interface":{"row_interface":`+row+`}}`, `{"TABLE_interface":{"ROW_interface":`+row+`,"ROW_interface":`+row+`}}`,
		`{"TABLE_interface":{"x":"y","ROW_interface":`+row+`},"z":"w"}`)
	for _, edit := range [][2]string{{`"desc":"x"`, `"DESC":"x"`}, {`"desc":"x"`, `"ETH_MTU":"1"`}, {`"desc":"x"`, `"eth_mtu":"1"`},
		{`"desc":"x"`, `"eth_speed":"1"`}, {`"desc":"x"`, `"ſtate":"x"`}, {`"desc":"x"`, `"eth_bundle":"port-channel5"`},
		{`"9216"`, `"null"`}, {`"9216"`, `"x"`}, {`"9216"`, `9216`}, {`"9216"`, `null`}, {`"9216"`, `"99999999999999999999"`},
		{`"400 Gb/s"`, `400`}, {`"400 Gb/s"`, `null`}, {`"up"`, `"u\"p"`}, {`"desc":"x"`, `"desc":5`}, {`"1"`, `"+1"`}} {
		cases = append(cases, wrap(strings.Replace(row, edit[0], edit[1], 1)))
	}
	return cases
}

// The fast path reads exactly the rows the decoder reads, or declines.
func TestInterfaceFastAgreesWithDecoder(t *testing.T) {
	read := 0
	for i, s := range interfaceCases(t) {
		got, ok := fastInterfaceRows(s)
		if !ok {
			continue
		}
		read++
		if want, err := decodeInterfaceRows(s); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("case %d %.200q:\n fast %+v\n want %+v, %v", i, s, got, want, err)
		}
	}
	if read < 5 {
		t.Errorf("the fast path read only %d cases", read)
	}
	for _, s := range []string{"healthy", "portchannel"} {
		b, err := readSeed(s, CmdInterface)
		if err != nil {
			t.Fatal(err)
		}
		var c bytes.Buffer
		if err := json.Compact(&c, []byte(b)); err != nil {
			t.Fatal(err)
		}
		if _, ok := fastInterfaceRows(c.String()); !ok {
			t.Errorf("%s: the fast path declines the compact reply", s)
		}
	}
}

func FuzzInterfaceFastAgreesWithDecoder(f *testing.F) {
	addSeeds(f, append(fuzzseed.Minis(f, readSeed, CmdInterface, 2, "healthy", "broken", "aiml", "portchannel"), interfaceCases(f)...)...)
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := fastInterfaceRows(s)
		if !ok {
			return
		}
		if want, err := decodeInterfaceRows(s); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%q:\n fast %+v\n want %+v, %v", s, got, want, err)
		}
	})
}
