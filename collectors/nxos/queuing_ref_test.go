package nxos

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/collectors/internal/fuzzseed"
)

// The decoder parseQueuingJSON replaced (a json.RawMessage per ROW_* level, each level
// decoded again: nine times slower on a 500 KB reply), kept as the reference the new one
// must agree with.

type queuingModuleRef struct {
	Table struct {
		Rows json.RawMessage `json:"ROW_queuing_interface"`
	} `json:"TABLE_queuing_interface"`
}

type queuingIfRef struct {
	Dir    string `json:"dir"`
	IfName string `json:"if_name_str"`
	Groups struct {
		Rows json.RawMessage `json:"ROW_qosgrp_egress_stats"`
	} `json:"TABLE_qosgrp_egress_stats"`
}

type qosGroupStatsRef struct {
	Group   json.RawMessage `json:"eq-qosgrp"`
	Entries struct {
		Rows json.RawMessage `json:"ROW_qosgrp_egress_stats_entry"`
	} `json:"TABLE_qosgrp_egress_stats_entry"`
}

type qosStatRef struct {
	Type    string `json:"eq-stat-type"`
	Units   string `json:"eq-stat-units"`
	Unicast num    `json:"eq-uc-stat-value"`
}

// parseQueuingJSON reads TABLE_module.ROW_module.TABLE_queuing_interface.ROW_queuing_interface
// (the Egress rows, by if_name_str) -> TABLE_qosgrp_egress_stats.ROW_qosgrp_egress_stats
// (eq-qosgrp) -> TABLE_qosgrp_egress_stats_entry.ROW_qosgrp_egress_stats_entry; every ROW_*
// may be an object when it holds one row.
func parseQueuingJSONRef(out string) (map[string]QueueCounters, error) {
	raw, err := body(out)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", CmdQueuingJSON, err)
	}
	var doc struct {
		Module struct {
			Rows json.RawMessage `json:"ROW_module"`
		} `json:"TABLE_module"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", CmdQueuingJSON, err)
	}
	mods, err := rows[queuingModuleRef](doc.Module.Rows)
	if err != nil || len(mods) == 0 {
		return nil, fmt.Errorf("%s: no TABLE_module.ROW_module in the output (%v)", CmdQueuingJSON, err)
	}
	res := map[string]QueueCounters{}
	for _, m := range mods {
		ifs, err := rows[queuingIfRef](m.Table.Rows)
		if err != nil {
			return nil, fmt.Errorf("%s: ROW_queuing_interface: %w", CmdQueuingJSON, err)
		}
		for _, qi := range ifs {
			if !strings.EqualFold(qi.Dir, "Egress") {
				continue
			}
			name := strings.TrimSpace(qi.IfName)
			if name == "" {
				return nil, fmt.Errorf("%s: an Egress row has no if_name_str", CmdQueuingJSON)
			}
			c, err := groupCountersRef(qi.Groups.Rows)
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %w", CmdQueuingJSON, name, err)
			}
			res[name] = c
		}
	}
	if len(res) == 0 {
		return nil, fmt.Errorf("%s: no Egress queuing row in the output", CmdQueuingJSON)
	}
	return res, nil
}

func groupCountersRef(raw json.RawMessage) (QueueCounters, error) {
	groups, err := rows[qosGroupStatsRef](raw)
	if err != nil {
		return nil, fmt.Errorf("ROW_qosgrp_egress_stats: %w", err)
	}
	c := QueueCounters{}
	for _, g := range groups {
		var id num
		if json.Unmarshal(g.Group, &id) != nil || !id.Set {
			continue // CONTROL QOS GROUP, SPAN QOS GROUP: not a data queue
		}
		if id.V < 0 || id.V > 7 {
			return nil, fmt.Errorf("eq-qosgrp %d is not a qos-group 0-7", id.V)
		}
		stats, err := rows[qosStatRef](g.Entries.Rows)
		if err != nil {
			return nil, fmt.Errorf("qos-group %d: ROW_qosgrp_egress_stats_entry: %w", id.V, err)
		}
		for _, s := range stats {
			if pattern, ok := queueStat(s.Type, s.Units); ok && s.Unicast.Set {
				c[fmt.Sprintf(pattern, id.V)] = s.Unicast.V
			}
		}
	}
	return c, nil
}

// queuingCases are the replies the two decoders are compared on: the fixtures, every ROW_*
// as one object, and the malformed shapes the reference rejected or let through.
func queuingCases(t testing.TB) []string {
	const row = `{"dir":"Egress","if_name_str":"Ethernet1/1","TABLE_qosgrp_egress_stats":{"ROW_qosgrp_egress_stats":%s}}`
	grp := func(id, stat string) string {
		return `{"eq-qosgrp":` + id + `,"TABLE_qosgrp_egress_stats_entry":{"ROW_qosgrp_egress_stats_entry":` + stat + `}}`
	}
	wrap := func(rows string) string {
		return `{"TABLE_module":{"ROW_module":{"TABLE_queuing_interface":{"ROW_queuing_interface":` + rows + `}}}}`
	}
	stat := `{"eq-stat-type":"Tx","eq-stat-units":"Pkts","eq-uc-stat-value":%s}`
	healthy, err := readSeed("healthy", CmdQueuingJSON)
	if err != nil {
		t.Fatal(err)
	}
	cases := []string{
		healthy, `{"output":{"body":` + healthy + `}}`,
		"", "{}", "null", "[]", `{"TABLE_module":null}`, `{"TABLE_module":{"ROW_module":[]}}`,
		`{"TABLE_module":{"ROW_module":[null]}}`, `{"TABLE_module":{"ROW_module":"x"}}`,
		`{"output":{"body":null}}`, `{"output":"x"}`, wrap("[null]"), wrap("[1]"), wrap(`"x"`),
		wrap(`{"dir":"Egress"}`), wrap(`{"dir":"Ingress","if_name_str":"Ethernet1/1"}`), wrap(`{"dir":5}`),
		healthy + " ", healthy + "{}",
	}
	for _, id := range []string{`"3"`, `3`, `"9"`, `-1`, `"x"`, `null`, `true`, `{}`, `3.0`, `" 3"`} {
		for _, v := range []string{`"17"`, `17`, `"n/a"`, `null`, `"null"`, `true`, `[]`, `9007199254740993`, `" 1"`} {
			one := fmt.Sprintf(stat, v)
			cases = append(cases, wrap(fmt.Sprintf(row, grp(id, one))), wrap(fmt.Sprintf(row, "["+grp(id, "["+one+",null]")+"]")))
		}
	}
	return cases
}

// The one-pass decoder agrees with the reference: the same counters, and an error exactly
// when the reference had one.
func TestQueuingJSONAgreesWithReference(t *testing.T) {
	for i, s := range queuingCases(t) {
		got, gerr := parseQueuingJSON(s)
		want, werr := parseQueuingJSONRef(s)
		if (gerr != nil) != (werr != nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("case %d %.120q:\n got %v, %v\nwant %v, %v", i, s, got, gerr, want, werr)
		}
	}
}

// queuingAgree says whether parseQueuingJSON and the reference agree on s.
func queuingAgree(s string) bool {
	got, gerr := parseQueuingJSON(s)
	want, werr := parseQueuingJSONRef(s)
	return (gerr != nil) == (werr != nil) && reflect.DeepEqual(got, want)
}

// The small seeds leave out those on which the generic tree (what parseQueuingJSON falls back
// to) and the struct reference are known to differ: a key given twice (the struct merges the
// two objects, keeps the first value under a later null, fails on a first value of the wrong
// type; the tree keeps the last), a key differing only in case ("TABLE_queuing_interfACe":
// encoding/json matches struct fields case-insensitively, the tree does not), and a counter or
// group string with an escape ("\u0030": the reference's num does not unescape). Examples are
// under testdata/fuzz-open/, in the fuzz corpus format: moved into testdata/fuzz/ they fail
// this target.
func FuzzQueuingJSONAgreesWithReference(f *testing.F) {
	var seeds []string
	for _, s := range queuingMiniSeeds(f) {
		if queuingAgree(s) {
			seeds = append(seeds, s)
		}
	}
	addSeeds(f, append(seeds, queuingCases(f)...)...)
	f.Fuzz(func(t *testing.T, s string) {
		got, gerr := parseQueuingJSON(s)
		want, werr := parseQueuingJSONRef(s)
		if (gerr != nil) != (werr != nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("%q:\n got %v, %v\nwant %v, %v", s, got, gerr, want, werr)
		}
	})
}

func BenchmarkQueuingJSON(b *testing.B) {
	s, err := readSeed("healthy", CmdQueuingJSON)
	if err != nil {
		b.Fatal(err)
	}
	for _, impl := range []struct {
		name  string
		parse func(string) (map[string]QueueCounters, error)
	}{{"one-pass", parseQueuingJSON}, {"reference", parseQueuingJSONRef}} {
		b.Run(impl.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := impl.parse(s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// The queuing scan reads exactly what the tree reads, or declines.
func FuzzQueuingScanAgreesWithTree(f *testing.F) {
	addSeeds(f, append(queuingMiniSeeds(f), append(queuingCases(f),
		`{"TABLE_module":{"ROW_module":{"TABLE_queuing_interface":{"ROW_queuing_interface":[{"TABLE_qosgrp_egress_stats":{"ROW_qosgrp_egress_stats":{"TABLE_qosgrp_egress_stats_entry":{"ROW_qosgrp_egress_stats_entry":[{"eq-uc-stat-value":"5","eq-stat-type":"Tx","eq-stat-units":"Pkts"}]},"eq-qosgrp":"3"}},"dir":"Egress","if_name_str":" Ethernet1/1 "},{"dir":"Ingress","if_name_str":"Ethernet1/1"}]}}}}`,
		`{"TABLE_module":{"ROW_module":{"TABLE_queuing_interface":{"ROW_queuing_interface":{"dir":"egress","if_name_str":"Ethernet1/2","TABLE_qosgrp_egress_stats":{"ROW_qosgrp_egress_stats":[{"eq-qosgrp":"CONTROL QOS GROUP","TABLE_qosgrp_egress_stats_entry":{"ROW_qosgrp_egress_stats_entry":[]}},{"eq-qosgrp":7,"TABLE_qosgrp_egress_stats_entry":{"ROW_qosgrp_egress_stats_entry":{"eq-stat-type":"ECN","eq-stat-units":"Pkts","eq-uc-stat-value":null}}},{"eq-qosgrp":"9","TABLE_qosgrp_egress_stats_entry":{"ROW_qosgrp_egress_stats_entry":[]}}]}}}}}}`,
		`{"TABLE_module":{"ROW_module":{"TABLE_queuing_interface":{"ROW_queuing_interface":{"dir":"Egress","if_name_str":"E","TABLE_qosgrp_egress_stats":{"ROW_qosgrp_egress_stats":{"eq-qosgrp":true,"TABLE_qosgrp_egress_stats_entry":{}}}}}}}}`,
	)...)...)
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := scanQueuingJSON(s)
		if !ok {
			return
		}
		want, err := decodeQueuingJSON(s)
		if err != nil {
			t.Fatalf("%q: the scan read %v where the tree fails: %v", s, got, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n scan %v\n tree %v", s, got, want)
		}
	})
}

// The scan reads the recorded replies itself: were it to decline them, the fast path would
// silently never run.
func TestQueuingScanReadsFixtures(t *testing.T) {
	read := 0
	for _, scenario := range []string{"healthy", "broken", "aiml", "portchannel"} {
		s, err := readSeed(scenario, CmdQueuingJSON)
		if err != nil {
			continue // a scenario without the JSON reply
		}
		read++
		if _, ok := scanQueuingJSON(s); !ok {
			t.Errorf("%s: the scan declines the recorded %s", scenario, CmdQueuingJSON)
		}
	}
	if read == 0 {
		t.Fatal("no recorded reply")
	}
}

// compactQueuing is the reply as NX-OS prints it over SSH, from a fixture's (which may be
// indented): the layout fastQueuingJSON reads.
func compactQueuing(t testing.TB, s string) string {
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// queuingMiniSeeds are the recorded queuing replies cut to one or two interfaces, queue groups
// and statistics, and their variants.
func queuingMiniSeeds(t testing.TB) []string {
	return fuzzseed.Minis(t, readSeed, CmdQueuingJSON, 2, "healthy", "broken", "aiml", "portchannel")
}

// The fast path reads exactly what the tree reads, or declines.
func FuzzQueuingFastAgreesWithTree(f *testing.F) {
	seeds := append(queuingMiniSeeds(f), queuingCases(f)...)
	const entry = `{"eq-stat-type":"Tx","eq-stat-units":"Pkts","eq-uc-stat-value":"5","eq-oobfc-uc-stat-value":"0","eq-mc-stat-value":"0"}`
	for _, s := range []string{
		`{"TABLE_module":{"ROW_module":{"module":"1","TABLE_queuing_interface":{"ROW_queuing_interface":[{"dir":"Egress","if_name_str":"Ethernet1/1","TABLE_qosgrp_egress_stats":{"ROW_qosgrp_egress_stats":[{"eq-qosgrp":"0","TABLE_qosgrp_egress_stats_entry":{"ROW_qosgrp_egress_stats_entry":[` + entry + `,` + entry + `]}},{"eq-qosgrp":"CONTROL QOS GROUP","TABLE_qosgrp_egress_stats_entry":{"ROW_qosgrp_egress_stats_entry":` + entry + `}}]}},{"dir":"Ingress","if_name_str":"Ethernet1/1"}]}}}}`,
		`{"TABLE_module":{"ROW_module":{"TABLE_queuing_interface":{"ROW_queuing_interface":{"dir":"egress","if_name_str":" E1 ","TABLE_qosgrp_egress_stats":{"ROW_qosgrp_egress_stats":{"eq-qosgrp":"7","TABLE_qosgrp_egress_stats_entry":{"ROW_qosgrp_egress_stats_entry":[{"eq-stat-units":"Byts","eq-stat-type":"ECN","eq-uc-stat-value":"null"},{"eq-stat-type":"WD & Tail Drop","eq-stat-units":"Pkts","eq-uc-stat-value":"+12"}]}}}}}}}}`,
	} {
		seeds = append(seeds, s)
	}
	for _, scenario := range []string{"healthy", "broken", "aiml", "portchannel"} {
		if s, err := readSeed(scenario, CmdQueuingJSON); err == nil {
			seeds = append(seeds, compactQueuing(f, s))
		}
	}
	addSeeds(f, seeds...)
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := fastQueuingJSON(s)
		if !ok {
			return
		}
		want, err := decodeQueuingJSON(s)
		if err != nil {
			t.Fatalf("%q: the fast path read %v where the tree fails: %v", s, got, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n fast %v\n tree %v", s, got, want)
		}
	})
}

// The fast path reads the recorded replies in NX-OS's compact layout itself: were it to
// decline them, it would silently never run.
func TestQueuingFastReadsCompactFixtures(t *testing.T) {
	read := 0
	for _, scenario := range []string{"healthy", "broken", "aiml", "portchannel"} {
		s, err := readSeed(scenario, CmdQueuingJSON)
		if err != nil {
			continue
		}
		read++
		s = compactQueuing(t, s)
		got, ok := fastQueuingJSON(s)
		if !ok {
			t.Errorf("%s: the fast path declines the compact %s", scenario, CmdQueuingJSON)
		}
		if want, err := decodeQueuingJSON(s); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: fast %v, tree %v %v", scenario, got, want, err)
		}
	}
	if read == 0 {
		t.Fatal("no recorded reply")
	}
}

// The SWAR string reader stops where a byte at a time would.
func TestQueuingFastStr(t *testing.T) {
	for c := 0; c < 256; c++ {
		for pos := 0; pos < 20; pos++ {
			body := []byte(strings.Repeat("a", 20))
			body[pos] = byte(c)
			s := `"` + string(body) + `"x`
			f := &compactJSON{s: s}
			got, ok := f.str()
			want, wantOK := string(body), c >= 0x20 && c < 0x7f && c != '\\'
			if c == '"' {
				want, wantOK = string(body[:pos]), true
			}
			if ok != wantOK || ok && got != want {
				t.Errorf("byte %#x at %d: got %q %v, want %q %v", c, pos, got, ok, want, wantOK)
			}
		}
	}
}

// A quick differential run beside the fuzz target (whose worker crawls on these seeds): the
// fast path agrees with the tree on random byte edits of every seed.
func TestQueuingFastAgreesOnMutations(t *testing.T) {
	seeds, compact := queuingCases(t), []string{}
	for _, scenario := range []string{"healthy", "portchannel"} {
		if s, err := readSeed(scenario, CmdQueuingJSON); err == nil {
			compact = append(compact, compactQueuing(t, s))
		}
	}
	const alphabet = "{}[],:\" \\0179-+.eEnulltrueEgressCONTROL"
	rng := rand.New(rand.NewPCG(1, 2))
	n := 10000
	if testing.Short() {
		n = 2000
	}
	read := 0
	defer func() { t.Logf("the fast path read %d of %d edits", read, n) }()
	for range n {
		b := []byte(seeds[rng.IntN(len(seeds))])
		if rng.IntN(2) == 0 { // mostly edits the fast path reads
			b = []byte(compact[rng.IntN(len(compact))])
		}
		for range 1 + rng.IntN(3) {
			if len(b) == 0 {
				break
			}
			i := rng.IntN(len(b))
			switch rng.IntN(3) {
			case 0:
				b[i] = alphabet[rng.IntN(len(alphabet))]
			case 1:
				b = append(b[:i], b[i+1:]...)
			default:
				b = append(b[:i], append([]byte{alphabet[rng.IntN(len(alphabet))]}, b[i:]...)...)
			}
		}
		s := string(b)
		got, ok := fastQueuingJSON(s)
		if !ok {
			continue
		}
		read++
		if want, err := decodeQueuingJSON(s); err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("%.300q:\n fast %v\n tree %v %v", s, got, want, err)
		}
	}
}
