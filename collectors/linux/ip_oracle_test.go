package linux

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/collectors"
)

// The ip excerpt as it was built before ipFields.excerpt wrote it in one buffer: the oracle.

func ipFieldsExcerptRef(get func(k string) (json.RawMessage, bool)) string {
	var b strings.Builder
	b.WriteString("{")
	first := true
	for _, k := range ipExcerptKeys {
		v, ok := get(k)
		if !ok {
			continue
		}
		if k == "addr_info" {
			v = trimAddrInfoRef(v)
		}
		var c bytes.Buffer
		if json.Compact(&c, v) != nil {
			continue
		}
		if !first {
			b.WriteString(",")
		}
		first = false
		b.WriteString(strconv.Quote(k) + ":" + c.String())
	}
	b.WriteString("}")
	return b.String()
}

func trimAddrInfoRef(raw json.RawMessage) json.RawMessage {
	var parts []string
	if scanObjects(string(raw), addrKeys[:], func(vals []string) { parts = append(parts, addrPartRef(vals)) }) {
		return json.RawMessage("[" + strings.Join(parts, ",") + "]")
	}
	return decodeAddrInfoRef(raw)
}

func decodeAddrInfoRef(raw json.RawMessage) json.RawMessage {
	var addrs []map[string]json.RawMessage
	if json.Unmarshal(raw, &addrs) != nil {
		return raw
	}
	parts := make([]string, 0, len(addrs))
	vals := make([]string, len(addrKeys))
	for _, a := range addrs {
		for k, key := range addrKeys {
			vals[k] = string(a[key])
		}
		parts = append(parts, addrPartRef(vals))
	}
	return json.RawMessage("[" + strings.Join(parts, ",") + "]")
}

func addrPartRef(vals []string) string {
	var b strings.Builder
	b.WriteByte('{')
	first := true
	for k, v := range vals {
		if v == "" {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.WriteString(strconv.Quote(addrKeys[k]))
		b.WriteByte(':')
		b.WriteString(v)
	}
	b.WriteByte('}')
	return b.String()
}

// checkIPExcerpts compares, for a text ParseIPAddr accepts (the only texts the excerpts are
// cut from), every netdev's excerpt with the oracle's over encoding/json's objects.
func checkIPExcerpts(t *testing.T, text string) {
	t.Helper()
	_, fields, err := parseIPAddr(text)
	if err != nil {
		return
	}
	d := &discovery{ip: result{out: collectors.Output{Stdout: text}}, ipFields: fields} // as discover keeps them
	for _, o := range ipObjects(text) {
		var name string
		if json.Unmarshal(o["ifname"], &name) != nil {
			continue
		}
		if got, want := d.ipExcerpt(name), ipAddrExcerpt(text, name); got != want {
			t.Fatalf("%q: ip excerpt of %q\n got %s\nwant %s", text, name, got, want)
		}
	}
	if got, want := trimAddrInfo(json.RawMessage(text)), trimAddrInfoRef(json.RawMessage(text)); string(got) != string(want) {
		t.Fatalf("trimAddrInfo(%q) = %s, was %s", text, got, want)
	}
	if got, want := decodeAddrInfo(json.RawMessage(text)), decodeAddrInfoRef(json.RawMessage(text)); string(got) != string(want) {
		t.Fatalf("decodeAddrInfo(%q) = %s, was %s", text, got, want)
	}
}

func ipExcerptSeeds(tb testing.TB) []string {
	seeds := []string{
		`[{"ifname":"a","mtu":9000,"addr_info":[{"family":"inet","local":"1.2.3.4","prefixlen":24,"scope":"global","label":"a"}]}]`,
		`[{"ifname": "b", "mtu": 1500, "linkinfo": {"info_kind": "bond", "info_data": {"mode": "802.3ad"}},` + "\n" +
			` "addr_info": [ {"family": "inet6", "local": "fe80::1", "scope" : "link"}, null ], "operstate": "UP"}, null]`,
		`[{"ifname":"c","link":null,"master":"bond0","addr_info":[],"mtu":-1}]`,
		`[{"ifname":"d","addr_info":5,"mtu":1}]`, `[{"ifname":"e","addr_info":[{"local":{"x" : [1, "a b"]}}]}]`,
		`[{"ifname":"f","operstate":"U\u0050","addr_info":[{"f\u0061mily":"inet"}]}]`,
	}
	for _, sc := range []string{"ofed-lossless", "dual-port", "inbox-dcb", "roce-lag", "ipv6-gids-no-rdma"} {
		out, err := newFakeRunner(sc).Run(context.Background(), CmdIPAddr)
		if err != nil {
			tb.Fatal(err)
		}
		seeds = append(seeds, out.Stdout)
	}
	return append(seeds, loadTranscript(tb)[CmdIPAddr].Stdout)
}

// Every netdev's ip excerpt is the one ipFieldsExcerpt wrote before.
// go test runs the seeds (the recorded outputs) as a test; to fuzz:
// go test -run XXX -fuzz FuzzIPExcerpt -fuzztime 60s -fuzzminimizetime 2s ./collectors/linux
func FuzzIPExcerpt(f *testing.F) {
	addSeeds(f, append(ipMinis(f), ipExcerptSeeds(f)...)...)
	f.Fuzz(checkIPExcerpts)
}
