package linux

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/internal/memo"
)

// splitHwCounterPath splits the path of a `grep -H` line over hw_counters,
// /sys/class/infiniband/DEV/ports/N/hw_counters/NAME, into DEV and NAME, by hand: as a
// regexp it was most of the cost of reading a port's counters.
func splitHwCounterPath(p string) (dev, name string, ok bool) {
	rest, ok := strings.CutPrefix(p, "/sys/class/infiniband/")
	dev, rest, ok2 := strings.Cut(rest, "/")
	rest, ok3 := strings.CutPrefix(rest, "ports/")
	port, name, ok4 := strings.Cut(rest, "/hw_counters/")
	if ok && ok2 && ok3 && ok4 && dev != "" && allDigits(port) && name != "" &&
		strings.IndexByte(name, '/') < 0 && strings.IndexByte(name, ':') < 0 { // ContainsAny built its set each time
		return dev, name, true
	}
	return "", "", false
}

// nextLine cuts text at its first newline, as strings.Cut(text, "\n") does; a loop over it
// yields the lines strings.SplitSeq does, without the iterator's closure.
func nextLine(text string) (line, rest string, more bool) {
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		return text[:i], text[i+1:], true
	}
	return text, "", false
}

// blank is strings.TrimSpace(s) == "", deciding most lines by their first byte.
func blank(s string) bool {
	return s == "" || (s[0] <= ' ' || s[0] >= utf8.RuneSelf) && strings.TrimSpace(s) == ""
}

// parseDecimal is strconv.ParseInt(strings.TrimSpace(s), 10, 64) for its usual shape, blanks
// or tabs then at most 18 digits to the end (no overflow possible); ok is false for any other
// shape, which the caller gives to ParseInt. ParseInt and the trims were a third of an
// ethtool -S parse.
func parseDecimal(s string) (v int64, ok bool) {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i == len(s) || len(s)-i > 18 {
		return 0, false
	}
	for ; i < len(s); i++ {
		c := s[i] - '0'
		if c > 9 {
			return 0, false
		}
		v = v*10 + int64(c)
	}
	return v, true
}

// parseInt is strconv.ParseInt(strings.TrimSpace(s), 10, 64), by parseDecimal when it can.
func parseInt(s string) (int64, error) {
	if v, ok := parseDecimal(s); ok {
		return v, nil
	}
	return strconv.ParseInt(strings.TrimSpace(s), 10, 64)
}

// ParseEthtoolStats reads `ethtool -S IF`: a `NIC statistics:` header, then `name: value`
// rows. Names are trimmed (one old mlx5 name carried a trailing space).
func ParseEthtoolStats(text string) (map[string]int64, error) {
	m, _, _, err := parseEthtoolStats(text, 0, nil, nil)
	return m, err
}

// parseEthtoolStats is ParseEthtoolStats with room for extra more entries (the hw counters
// collectCounters adds: growing the map for them was 14% of an 8-rail host's allocation),
// keeping only the counters filter keeps (every one if filter is nil); rows is how many it read.
// Every row is read all the same: a malformed one fails the output whatever its counter.
// It appends to kept the lines counterExcerpt keeps (kept as it was on an error): cutting
// them in a second pass over the text was 12% of an 8-rail host's collection. A row's
// counter words can only be in its name (the rest is blanks, ':' and an integer), so only
// the name is searched, and only when the row leaves the layout (counterLayout) of the last
// output of its size. A scanner reading a row's name, ':' and digits in one byte loop was no
// faster than IndexByte, TrimSpace and LastIndexByte, and a search by letter pairs no faster
// than by first letters.
func parseEthtoolStats(text string, extra int, filter *collectors.CounterFilter, kept []string) (_ map[string]int64, rows int, _ []string, _ error) {
	// Sized once: a ConnectX prints hundreds of counters, which grew the map many times. The
	// audit's filter keeps about one in seven (38 of a 400G port's 254): the layout of the
	// last output of this many lines knows how many, else a quarter is that map's final size
	// without the sizes it grew through.
	lines := strings.Count(text, "\n")
	layouts := counterLayoutsOf(filter)
	lay := layouts.get(lines)
	size := lines + extra
	if filter != nil {
		if lay != nil {
			size = lay.keep + extra
		} else {
			size /= 4
		}
	}
	out := make(map[string]int64, size)
	kept0 := kept
	var known map[string]counterName // read only once a row leaves the layout
	var met []string                 // names known lacks
	var fresh []layoutRow            // the rows' names once they left lay: the next layout
	diverged := false
	header := false
	n := 0
	for rest, more := text, true; more; {
		var raw string
		raw, rest, more = nextLine(rest)
		n++
		line := strings.TrimSpace(raw)
		if line == "" {
			continue
		}
		if !header {
			if !strings.HasSuffix(line, "statistics:") {
				return nil, 0, kept0, fmt.Errorf("ethtool -S line %d %s: expected the `NIC statistics:` header", n, collectors.QuoteLine(line))
			}
			header = true
			if hasCounterWord(raw) {
				kept = append(kept, raw)
			}
			continue
		}
		i := strings.LastIndexByte(line, ':')
		if i <= 0 {
			return nil, 0, kept0, fmt.Errorf("ethtool -S line %d %s: expected `name: value`", n, collectors.QuoteLine(line))
		}
		v, err := parseInt(line[i+1:])
		if err != nil {
			return nil, 0, kept0, fmt.Errorf("ethtool -S line %d %s: value is not an integer", n, collectors.QuoteLine(line))
		}
		name := line[:i] // line starts trimmed: only a blank before the ':' is left to trim
		if c := name[len(name)-1]; c <= ' ' || c >= utf8.RuneSelf {
			name = strings.TrimSpace(name)
		}
		var c counterName
		if !diverged && lay != nil && rows < len(lay.rows) && lay.rows[rows].name == name {
			c = lay.rows[rows].c
		} else {
			if !diverged {
				diverged, known = true, counterNames(filter).Map()
				fresh = make([]layoutRow, rows, max(lines, rows+1))
				if lay != nil {
					copy(fresh, lay.rows[:rows])
				}
			}
			var ok bool
			if c, ok = known[name]; !ok {
				c, met = nameOf(filter, name), append(met, name)
			}
			fresh = append(fresh, layoutRow{name, c})
		}
		rows++
		if c.keep {
			out[name] = v
		}
		if c.word {
			kept = append(kept, raw)
		}
	}
	if !header {
		return nil, 0, kept0, fmt.Errorf("ethtool -S: empty output (expected `NIC statistics:` and counters)")
	}
	if diverged {
		counterNames(filter).Add(met...)
		layouts.put(lines, fresh)
	}
	return out, rows, kept, nil
}

// A counterLayout is the row names of an ethtool -S output and what each decides, in order:
// a fleet's NICs of one model print the same rows, so a row whose name is the layout's at
// its place needs no look-up. The look-up in the names' memo (hashing each name) was half of
// parseEthtoolStats; comparing with the expected name is a length and a memequal.
type counterLayout struct {
	rows []layoutRow
	keep int // rows kept: the map's size
}

type layoutRow struct {
	name string
	c    counterName
}

// bySize holds values by a size (an output's line count: NIC models differ in it), read
// without a lock as memo.Memo is; bounded, since the text comes from devices.
type bySize[V any] struct {
	mu sync.Mutex
	m  atomic.Pointer[map[int]V]
}

const (
	maxLayouts    = 16
	maxLayoutRows = 4096
)

// get is the value of size n, or V's zero.
func (t *bySize[V]) get(n int) V {
	var v V
	if p := t.m.Load(); p != nil {
		v = (*p)[n]
	}
	return v
}

// set makes v the value of size n, in a copy of the map, unless maxLayouts sizes are held
// and n is not one of them.
func (t *bySize[V]) set(n int, v V) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var old map[int]V
	if p := t.m.Load(); p != nil {
		old = *p
	}
	if _, ok := old[n]; !ok && len(old) >= maxLayouts {
		return
	}
	fresh := make(map[int]V, len(old)+1)
	for k, v := range old {
		fresh[k] = v
	}
	fresh[n] = v
	t.m.Store(&fresh)
}

// counterLayouts holds a filter's ethtool -S layouts by the output's line count.
type counterLayouts struct{ bySize[*counterLayout] }

// put remembers rows as the layout of outputs of lines lines, their names copied into one
// string (they are pieces of a device's output).
func (t *counterLayouts) put(lines int, rows []layoutRow) {
	if len(rows) > maxLayoutRows {
		return
	}
	size := 0
	for _, r := range rows {
		size += len(r.name)
	}
	var b strings.Builder
	b.Grow(size)
	for _, r := range rows {
		b.WriteString(r.name)
	}
	names := b.String()
	l := &counterLayout{rows: make([]layoutRow, len(rows))}
	for i, r := range rows {
		l.rows[i] = layoutRow{names[:len(r.name)], r.c}
		names = names[len(r.name):]
		if r.c.keep {
			l.keep++
		}
	}
	t.set(lines, l)
}

// counterLayoutsOf is filter's layouts (nil: every counter kept).
func counterLayoutsOf(filter *collectors.CounterFilter) *counterLayouts {
	if filter == nil {
		return &everyCounterLayout
	}
	return filter.Memo(counterLayoutsKey{}, func() any { return new(counterLayouts) }).(*counterLayouts)
}

type counterLayoutsKey struct{}

var everyCounterLayout counterLayouts

// ParseHwCounters reads `grep -s -H .` over /sys/class/infiniband/DEV/ports/PORT/hw_counters/*
// keyed by file name. `lifespan` is the counters' cache time in ms, not a counter: skipped.
func ParseHwCounters(grepText string) (map[string]int64, error) {
	cs, _, err := parseHwCounters(grepText, nil, nil)
	if err != nil {
		return nil, err
	}
	out := make(map[string]int64, len(cs))
	for _, c := range cs {
		out[c.name] = c.v
	}
	return out, nil
}

// hwCounter is one hw_counters file read, in output order.
type hwCounter struct {
	name string
	v    int64
}

// parseHwCounters is ParseHwCounters as the rows read, appended to dst (a later repeat of a
// name wins, as in the map), so collectCounters adds them to its map without building
// another one. It appends to kept the lines counterExcerpt keeps, as parseEthtoolStats does:
// a line's counter words can only be in DEV or NAME (the rest of the path holds none, the
// value is an integer).
func parseHwCounters(grepText string, dst []hwCounter, kept []string) ([]hwCounter, []string, error) {
	if dst == nil {
		dst = make([]hwCounter, 0, strings.Count(grepText, "\n")+1)
	}
	dst0, kept0 := len(dst), kept
	words := counterWordMemo.Map()
	var met []string // names words lacks
	// A port's lines share one directory: once split, a path in it only reads its NAME.
	dir, devWord := "", false
	n := 0
	for rest, more := grepText, true; more; {
		var line string
		line, rest, more = nextLine(rest)
		n++
		if blank(line) {
			continue
		}
		p, val, ok := strings.Cut(line, ":")
		var name string
		okPath := false
		if d := p[:strings.LastIndexByte(p, '/')+1]; d != "" && d == dir {
			name, okPath = p[len(d):], len(p) > len(d)
		} else {
			var dev string
			if dev, name, okPath = splitHwCounterPath(p); okPath {
				dir, devWord = d, hasCounterWord(dev)
			}
		}
		if !ok || !okPath {
			return nil, kept0, fmt.Errorf("hw_counters line %d %s: expected /sys/class/infiniband/DEV/ports/N/hw_counters/NAME:VALUE", n, collectors.QuoteLine(line))
		}
		v, err := parseInt(val)
		if err != nil {
			return nil, kept0, fmt.Errorf("hw_counters line %d: value %q is not an integer", n, val)
		}
		if name != "lifespan" {
			dst = append(dst, hwCounter{name, v})
		}
		word, known := words[name]
		if !known {
			word, met = hasCounterWord(name), append(met, name)
		}
		if devWord || word {
			kept = append(kept, line)
		}
	}
	if len(dst) == dst0 {
		return nil, kept0, fmt.Errorf("hw_counters: no counter lines (expected PATH:VALUE per counter file)")
	}
	counterWordMemo.Add(met...)
	return dst, kept, nil
}

// counterName is what a counter's name decides: whether its lines belong in the counters'
// excerpt (hasCounterWord) and whether the collection's filter keeps it.
type counterName struct{ word, keep bool }

func nameOf(filter *collectors.CounterFilter, name string) counterName {
	return counterName{word: hasCounterWord(name), keep: filter == nil || filter.Keep(name)}
}

// counterNames remembers nameOf for filter (nil: every counter kept): one look-up a row,
// where a look-up in counterWordMemo and one in the filter's (topology.IsSnapshotCounter's
// memo) were a fifth of an 8-rail host's collection in BenchmarkCollectRail8Host/checked.
func counterNames(filter *collectors.CounterFilter) *memo.Memo[counterName] {
	if filter == nil {
		return everyCounterName
	}
	return filter.Memo(counterNamesKey{}, func() any {
		return memo.New(4096, func(name string) counterName { return nameOf(filter, name) })
	}).(*memo.Memo[counterName])
}

type counterNamesKey struct{}

var everyCounterName = memo.New(4096, func(name string) counterName { return nameOf(nil, name) })

// counterWordMemo holds hasCounterWord of the counter names met: a host's NICs and a fleet's
// hosts print the same few hundred names, and the search was a fifth of a port's counters
// (a look-up costs a third of it). A parse reads one Map and adds the names it lacked.
var counterWordMemo = memo.New(4096, hasCounterWord)

// rdmaNames holds "rdma_"+name for the hw counter names (a few dozen, alike on every port),
// so merging a port's hw counters allocates no key.
var rdmaNames = memo.New(1024, func(name string) string { return "rdma_" + name })

func rdmaName(name string) string { return rdmaNames.Get(name) }

// keptHwCounters appends to dst the counters of cs filter keeps (every one if nil), named
// rdma_NAME. A port's hw counters are the same few dozen names in the same order: those
// that are the remembered sequence's at their place take its name and decision, where a
// look-up in rdmaNames and the filter's memo each was 2% of an 8-rail host's collection.
func keptHwCounters(cs []hwCounter, filter *collectors.CounterFilter, dst []hwCounter) []hwCounter {
	seqs := hwSeqsOf(filter)
	seq := seqs.get(len(cs))
	var fresh []hwName // the names once they left seq: the next sequence
	diverged := false
	for i, c := range cs {
		var h hwName
		if !diverged && i < len(seq) && seq[i].rdma[len("rdma_"):] == c.name {
			h = seq[i]
		} else {
			if !diverged {
				diverged = true
				fresh = append(make([]hwName, 0, len(cs)), seq[:i]...)
			}
			h.rdma = rdmaName(c.name)
			h.keep = filter == nil || filter.Keep(h.rdma)
			fresh = append(fresh, h)
		}
		if h.keep {
			dst = append(dst, hwCounter{h.rdma, c.v})
		}
	}
	if diverged && len(cs) <= maxLayoutRows {
		seqs.set(len(cs), fresh)
	}
	return dst
}

// hwName is a hw counter's name as kept (rdma_NAME, which holds NAME: never a piece of a
// device's output) and whether the filter keeps it.
type hwName struct {
	rdma string
	keep bool
}

// hwSeqs holds a filter's hw counter sequences by their length.
type hwSeqs = bySize[[]hwName]

func hwSeqsOf(filter *collectors.CounterFilter) *hwSeqs {
	if filter == nil {
		return &everyHwSeq
	}
	return filter.Memo(hwSeqsKey{}, func() any { return new(hwSeqs) }).(*hwSeqs)
}

type hwSeqsKey struct{}

var everyHwSeq hwSeqs
