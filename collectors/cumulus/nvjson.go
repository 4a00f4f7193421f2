package cumulus

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/internal/evidence"
	"github.com/roceaudit/roceaudit/collectors/internal/jsonscan"
	"github.com/roceaudit/roceaudit/topology"
)

// NVUE prints any `nv show` path as its object tree with `-o json`: raw numbers (bytes, not
// "1.43 MB") and whole strings (never cut short with "…"). The collector reads JSON where the
// text loses something (the LLDP table's truncated cells, the humanised byte counters) and
// falls back to the text command when a switch refuses `-o json` or answers with something
// that does not decode; after one such refusal it asks that switch in text only.

// jsonCmd is cmd with NVUE's JSON output option.
func jsonCmd(cmd string) string { return cmd + " -o json" }

// nvReader sends a collection's commands, remembering whether the switch takes `-o json`.
// Ports are read concurrently: noJSON is atomic, and a port that asked in JSON just before
// another port's refusal was recorded still falls back to text on its own.
type nvReader struct {
	r      collectors.Runner
	noJSON atomic.Bool
	// dry keeps asking JSON first after a refusal: a dry run lists every read's two forms.
	dry bool
	// memo is the collection's memo of per-port parses (nil: parse each).
	memo *portMemo
}

// statusMemo remembers ParseRoCEStatus by output for one collection, with the groupings
// (groupByValue) of the port's maps over the switch's: a leaf's ports mostly print the same
// status, and parsing and grouping it for each was a third of a Cumulus leaf's collection.
// The results are shared, read-only (rocePort clones what it keeps); a collection has one
// switch-wide status, so the output alone is the key.
type statusMemo struct {
	mu sync.Mutex
	m  map[string]parsedStatus
}

type parsedStatus struct {
	st  *RoCE
	err error
	// the port's maps over the switch's (a port keeps clones), and the excerpts of the
	// DSCP->switch-priority, ->traffic-class and scheduler facts, made once an output
	dscp, sptc              map[int]int
	sched                   map[int]string
	dscpEx, sptcEx, schedEx string
	pfcEx                   string
	ecn                     map[int]bool
}

// parse is ParseRoCEStatus of out, grouped over global's maps.
func (m *statusMemo) parse(out string, global *RoCE) parsedStatus {
	if m == nil {
		return parseStatus(out, global)
	}
	m.mu.Lock()
	p, ok := m.m[out]
	m.mu.Unlock()
	if !ok {
		p = parseStatus(out, global)
		m.mu.Lock()
		if m.m == nil {
			m.m = map[string]parsedStatus{}
		}
		if len(m.m) < memoMax { // as outMemo: a switch whose every port answers differently keeps no more
			m.m[out] = p
		}
		m.mu.Unlock()
	}
	return p
}

// parseStatus is statusMemo.parse unremembered (a function, not a closure: a closure of
// out and global was allocated on every port's call).
func parseStatus(out string, global *RoCE) parsedStatus {
	st, err := ParseRoCEStatus(out)
	if err != nil {
		return parsedStatus{err: err}
	}
	p := parsedStatus{st: st, dscp: overlay(global.DSCPToSP, st.DSCPToSP), sptc: overlay(global.SPToTC, st.SPToTC),
		sched: overlay(global.TCScheduler, st.TCScheduler), ecn: map[int]bool{}}
	p.dscpEx = "DSCP->switch-priority: " + groupByValue(p.dscp) + " (" + CmdRoCE + " map, port rows:\n" + st.Excerpts[ExPrioMap] + ")"
	p.sptcEx = "switch-priority->traffic-class: " + groupByValue(p.sptc) + " (" + CmdRoCE + " map, port rows:\n" + st.Excerpts[ExTCMap] + ")"
	p.schedEx = "traffic-class scheduler: " + groupByValue(p.sched) + " (" + CmdRoCE + " map, port rows:\n" + st.Excerpts[ExTCMap] + ")"
	p.pfcEx = joinLines(st.Excerpts[ExPFC], "(mode "+st.Mode+")")
	for tc := 0; tc < 8; tc++ {
		p.ecn[tc] = false
	}
	for _, tc := range st.ECNTCs {
		p.ecn[tc] = st.ECN
	}
	return p
}

// read runs cmd as JSON and parses it with fromJSON; when JSON is refused or undecodable it
// runs the text command and parses it with fromText. The evidence names the command that
// answered; a text fallback notes why JSON was not used.
func read[T any](ctx context.Context, nr *nvReader, cmd string, fromJSON, fromText func(string) (T, error)) (T, topology.Evidence) {
	return readPort(ctx, nr, cmd, jsonCmd(cmd), "", fromJSON, fromText)
}

// readPort is read of the command tmpl for the port name, whose JSON form jcmd the port
// expanded with its others: the text command is only made when it is sent. A template
// without {if} is the command itself.
func readPort[T any](ctx context.Context, nr *nvReader, tmpl, jcmd, name string, fromJSON, fromText func(string) (T, error)) (T, topology.Evidence) {
	var why string
	if !nr.noJSON.Load() {
		out, ev := evidence.Run(ctx, nr.r, jcmd)
		if ev.Error == "" {
			v, err := fromJSON(out)
			if err == nil {
				return v, ev
			}
			ev.Error = commandError(jcmd, err)
		}
		if !nr.dry {
			nr.noJSON.Store(true)
		}
		why = ev.Error
	}
	v, ev := evidence.Read(ctx, nr.r, strings.Replace(tmpl, "{if}", name, 1), fromText)
	if why != "" && ev.Error == "" {
		ev.Excerpt = "(text: " + why + ")"
	}
	return v, ev
}

// The JSON forms of the per-port commands read JSON first, made once.
var (
	tmplCountersJSON  = jsonCmd(TmplCounters)
	tmplLinkStatsJSON = jsonCmd(TmplLinkStats)
)

// decode unmarshals NVUE JSON, naming the command (a template for per-port commands) on error.
func decode(cmd, out string, v any) error {
	if err := json.Unmarshal([]byte(out), v); err != nil {
		return fmt.Errorf("%s: not NVUE JSON: %w", jsonCmd(cmd), err)
	}
	return nil
}

// lldpJSON is one interface of `nv show interface lldp -o json`: an object keyed by interface
// name whose members mirror the text tree (`type`, `lldp.neighbor.<id>.chassis.system-name`,
// `...port.name`).
type lldpJSON struct {
	Type string `json:"type"`
	LLDP *struct {
		Neighbor map[string]struct {
			Chassis struct {
				SystemName string `json:"system-name"`
			} `json:"chassis"`
			Port struct {
				Name string `json:"name"`
			} `json:"port"`
		} `json:"neighbor"`
	} `json:"lldp"`
}

// ParseInterfaceLLDPJSON parses `nv show interface lldp -o json`. A port with several
// neighbours keeps the first by neighbour ID (the text table shows one row per port too).
func ParseInterfaceLLDPJSON(out string) ([]Interface, error) {
	if ifs, ok := interfaceLLDPScan(out); ok {
		return ifs, nil
	}
	return interfaceLLDPDecode(out)
}

// interfaceLLDPRow is the row of one interface, its neighbour the first by ID.
func interfaceLLDPRow(name, typ string, hasNeighbor bool, host, port string) Interface {
	if typ == "" && strings.HasPrefix(name, "swp") {
		typ = "swp" // a view without the type member: front-panel ports are named swp
	}
	row := Interface{Name: name, Type: typ, Line: name + " type " + typ}
	if hasNeighbor {
		row.RemoteHost, row.RemotePort = host, port
		row.Line += " lldp neighbor " + host + " port " + port
	}
	return row
}

// sortInterfaces sorts by port order: by Less, which Compare(a, b) < 0 is (Compare runs Less
// twice).
func sortInterfaces(ifs []Interface) {
	sort.Slice(ifs, func(a, b int) bool { return portOrder.Less(ifs[a].Name, ifs[b].Name) })
}

var (
	lldpIfFields       = []string{"type", "lldp"}
	lldpFields         = []string{"neighbor"}
	lldpNeighborFields = []string{"chassis", "port"}
	lldpChassisFields  = []string{"system-name"}
	lldpPortFields     = []string{"name"}
)

// interfaceLLDPScan is ParseInterfaceLLDPJSON's fast path, a scan of the document in place
// (encoding/json's map of structs of maps was ~1 ms of a 248-port leaf's collection). It
// declines whatever it is not sure to read as the decoder does: a null or escaped value, an
// interface or neighbour given twice, a member the decoder would match by its case, an
// interface without a name, names the port order does not tell apart, no interface.
func interfaceLLDPScan(out string) ([]Interface, bool) {
	sc := jsonscan.New(out)
	ifs := make([]Interface, 0, 64)
	str := func(dst *string) bool {
		v, ok := sc.Str()
		*dst = v
		return ok
	}
	ok := sc.Object(func(name string) bool {
		if name == "" {
			return false
		}
		var typ, firstID, host, port string
		neighbors := 0
		if !sc.Struct(lldpIfFields, func(f int) bool {
			if f == 0 {
				return str(&typ)
			}
			return sc.Struct(lldpFields, func(int) bool {
				var first string // the first ID, then the others: most ports have one
				var more []string
				return sc.Object(func(id string) bool {
					if neighbors > 0 {
						if id == first || slices.Contains(more, id) {
							return false // the decoder keeps the last
						}
						more = append(more, id)
					} else {
						first = id
					}
					var h, p string
					if !sc.Struct(lldpNeighborFields, func(f int) bool {
						if f == 0 {
							return sc.Struct(lldpChassisFields, func(int) bool { return str(&h) })
						}
						return sc.Struct(lldpPortFields, func(int) bool { return str(&p) })
					}) {
						return false
					}
					if neighbors == 0 || id < firstID {
						firstID, host, port = id, h, p
					}
					neighbors++
					return true
				})
			})
		}) {
			return false
		}
		ifs = append(ifs, interfaceLLDPRow(name, typ, neighbors > 0, host, port))
		return true
	})
	if !ok || !sc.End() || len(ifs) == 0 {
		return nil, false
	}
	sortInterfaces(ifs)
	for i := 1; i < len(ifs); i++ {
		if portOrder.Compare(ifs[i-1].Name, ifs[i].Name) == 0 {
			// given twice (the decoder keeps the last), or two names in no order ("swp1",
			// "swp01"), which the decoder's map puts in either
			return nil, false
		}
	}
	return ifs, true
}

// interfaceLLDPDecode is ParseInterfaceLLDPJSON by encoding/json: the reference of the scan,
// and what reads (or rejects, with its error) whatever the scan declines.
func interfaceLLDPDecode(out string) ([]Interface, error) {
	var doc map[string]lldpJSON
	if err := decode(CmdInterfaceLLDP, out, &doc); err != nil {
		return nil, err
	}
	if len(doc) == 0 {
		return nil, fmt.Errorf("%s: no interface in the output", jsonCmd(CmdInterfaceLLDP))
	}
	ifs := []Interface{}
	for name, i := range doc {
		if name == "" {
			return nil, fmt.Errorf("%s: an interface without a name", jsonCmd(CmdInterfaceLLDP))
		}
		var host, port string
		has := i.LLDP != nil && len(i.LLDP.Neighbor) > 0
		if has {
			ids := make([]string, 0, len(i.LLDP.Neighbor))
			for id := range i.LLDP.Neighbor {
				ids = append(ids, id)
			}
			sort.Strings(ids)
			n := i.LLDP.Neighbor[ids[0]]
			host, port = n.Chassis.SystemName, n.Port.Name
		}
		ifs = append(ifs, interfaceLLDPRow(name, i.Type, has, host, port))
	}
	sortInterfaces(ifs)
	return ifs, nil
}

// counterTables maps the tables of `nv show interface <if> counters qos -o json` to the names
// the text tables get (counterColumns): the JSON keys are the text section's columns, under
// a key per table (`egress-queue-stats`, `ingress-buffer-stats`, `pfc-stats`) and per class.
// JSON adds `ecn-marked-frames` per traffic class, which the text table does not print.
var counterTables = map[string]string{
	"Ingress Buffer Statistics": "ingress-buffer-stats",
	"Egress Queue Statistics":   "egress-queue-stats",
	"PFC Statistics":            "pfc-stats",
}

var jsonOnlyCounters = map[string]map[string]string{
	"egress-queue-stats": {"ecn-marked-frames": "queue%d_ecn_marked_packets"},
}

// ParseCountersQoSJSON parses `nv show interface <if> counters qos -o json`: exact counts.
func ParseCountersQoSJSON(out string) (map[string]int64, error) {
	if m, ok := countersQoSFast(out); ok {
		return m, nil
	}
	if m, ok := countersQoSScan(out); ok {
		return m, nil
	}
	return countersQoSDecode(out)
}

// countersQoSDecode is ParseCountersQoSJSON by encoding/json: the reference of the scan, and
// what reads (or rejects, with its error) whatever the scan declines.
func countersQoSDecode(out string) (map[string]int64, error) {
	var doc map[string]json.RawMessage
	if err := decode(TmplCounters, out, &doc); err != nil {
		return nil, err
	}
	m := map[string]int64{}
	for _, spec := range counterColumns {
		key := counterTables[spec.title]
		raw, ok := doc[key]
		if !ok {
			continue
		}
		var table map[string]map[string]json.RawMessage
		if err := json.Unmarshal(raw, &table); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", jsonCmd(TmplCounters), key, err)
		}
		names := map[string]string{}
		for col, pattern := range spec.names {
			names[col] = pattern
		}
		for col, pattern := range jsonOnlyCounters[key] {
			names[col] = pattern
		}
		for class, values := range table {
			k, err := strconv.Atoi(class)
			if err != nil || k < 0 || k > 15 {
				return nil, fmt.Errorf("%s: %s: %q is not a class number", jsonCmd(TmplCounters), key, class)
			}
			for col, v := range values {
				pattern, ok := names[col]
				if !ok {
					continue
				}
				n, err := strconv.ParseInt(strings.Trim(strings.TrimSpace(string(v)), `"`), 10, 64)
				if err != nil || n < 0 {
					return nil, fmt.Errorf("%s: %s %d %s: %s is not a count", jsonCmd(TmplCounters), key, k, col, v)
				}
				m[fmt.Sprintf(pattern, k)] = n
			}
		}
	}
	if len(m) == 0 {
		return nil, fmt.Errorf("%s: no counter tables in the output", jsonCmd(TmplCounters))
	}
	return m, nil
}

// qosTable is one JSON table of the counters with its columns' counter names by class
// 0..15 (counterColumns' names with jsonOnlyCounters), made once: the per-port scan formats
// no name, and finds tables and columns by comparing a few short strings rather than hashing
// them into maps.
type qosTable struct {
	key  string
	cols []qosColumn
}

type qosColumn struct {
	col     string
	byClass [16]string
}

var qosTables = func() []qosTable {
	var out []qosTable
	for _, spec := range counterColumns {
		key := counterTables[spec.title]
		t := qosTable{key: key}
		for _, names := range []map[string]string{spec.names, jsonOnlyCounters[key]} {
			for col, pattern := range names {
				c := qosColumn{col: col}
				for k := range c.byClass {
					c.byClass[k] = fmt.Sprintf(pattern, k)
				}
				t.cols = append(t.cols, c)
			}
		}
		out = append(out, t)
	}
	return out
}()

// qosTableIndex is the index in qosTables of the table keyed key, or -1.
func qosTableIndex(key string) int {
	for i := range qosTables {
		if qosTables[i].key == key {
			return i
		}
	}
	return -1
}

// qosColumnIndex is the index in cols of column col, or -1.
func qosColumnIndex(cols []qosColumn, col string) int {
	for i := range cols {
		if cols[i].col == col {
			return i
		}
	}
	return -1
}

// countersQoSScan is ParseCountersQoSJSON's second reader (after countersQoSFast, which
// reads only the usual document), without encoding/json's maps of raw messages (a third of
// a Cumulus leaf's collection): a general scan of the document in place, which skips tables
// and columns it does not know. It
// declines (and the decoder then answers, errors included) whatever it is not sure to read
// exactly as the decoder does: a repeated table or class, a class not written 0..15, a count
// that is not plain digits, no counter at all.
func countersQoSScan(out string) (map[string]int64, bool) {
	sc := jsonscan.New(out)
	m := make(map[string]int64, 96)
	var seen uint8 // tables read, by index in qosTables
	ok := sc.Object(func(table string) bool {
		ti := qosTableIndex(table)
		if ti < 0 {
			return sc.Skip()
		}
		if seen&(1<<ti) != 0 || sc.Peek() != '{' {
			return false
		}
		seen |= 1 << ti
		cols := qosTables[ti].cols
		var classes uint16
		return sc.Object(func(class string) bool {
			k, ok := classNumber(class)
			if !ok || classes&(1<<k) != 0 || sc.Peek() != '{' {
				return false
			}
			classes |= 1 << k
			return sc.Object(func(col string) bool {
				c := qosColumnIndex(cols, col)
				if c < 0 {
					return sc.Skip()
				}
				n, ok := scanCount(sc)
				if ok {
					m[cols[c].byClass[k]] = n // a repeated column: the last one, as the decoder keeps
				}
				return ok
			})
		})
	})
	if !ok || !sc.End() || len(m) == 0 {
		return nil, false
	}
	return m, true
}

// classNumber reads a class key written as the decoder's Atoi reads it and 0..15, in the
// one way each number has (so two keys cannot name one class).
func classNumber(s string) (int, bool) {
	switch {
	case len(s) == 1 && '0' <= s[0] && s[0] <= '9':
		return int(s[0] - '0'), true
	case len(s) == 2 && s[0] == '1' && '0' <= s[1] && s[1] <= '5':
		return 10 + int(s[1]-'0'), true
	}
	return 0, false
}

// scanCount reads a count as a JSON number or string of plain digits; anything else is left
// to the decoder, which decides whether it is a count. The digits are checked by a loop:
// strings.Trim with a cutset built its set on every call (a quarter of the scan's CPU).
func scanCount(sc *jsonscan.Scanner) (int64, bool) {
	var tok string
	var ok bool
	if sc.Peek() == '"' {
		tok, ok = sc.Str()
	} else {
		tok, ok = sc.Number()
	}
	if !ok || tok == "" {
		return 0, false
	}
	var n int64
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if len(tok) > 18 { // may overflow: ParseInt decides
		var err error
		n, err = strconv.ParseInt(tok, 10, 64)
		return n, err == nil
	}
	return n, true
}
