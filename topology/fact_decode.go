package topology

import (
	"bytes"
	"encoding"
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// A planned decoder for a device's JSON line. Profiles of checking a 10,000-device snapshot
// put most of its CPU in encoding/json (validating every line before decoding it, then
// matching every key and allocating every string through reflection) and in collecting
// what it allocated. This decoder walks a plan made once per Go type, in one pass, writing
// through pointers; it interns short strings (interface names, commands, statuses: a few
// distinct values across thousands of devices) and can drop what no check reads.
//
// It decodes what the snapshot writer writes. Anything it is not sure to read exactly as
// encoding/json would (an escape it does not handle, invalid UTF-8, a key that differs only
// in case, a number of the wrong shape) is an errFallback, and the caller decodes that line
// with encoding/json instead, so results never depend on which decoder ran.

var errFallback = errors.New("not for the planned decoder")

// planDecoder is one worker's decoder; not safe for concurrent use.
type planDecoder struct {
	b       []byte
	i       int
	scratch []byte // an escaped string, unescaped
	// strs holds every string value decoded, by its JSON text (escapes and all): 10,000
	// devices' facts hold ~300 MB of strings but ~60 MB distinct ones (the same commands,
	// excerpts, names on every port). One seen before is neither validated nor unescaped.
	strs *internTable
	// Strings and maps are first looked for at the same place in the last device of the
	// same platform (see fact_decode_repeat.go): guess is that device's, cur this one's.
	guess, cur *decoded
	platform   *platformDecoded            // this device's platform's
	lastOf     map[string]*platformDecoded // by platform
	// counters are the host counter names seen, with whether checks read them.
	counters map[string]counterName
	// maps holds every map decoded, by type and JSON text: the same QoS maps (DSCP->TC,
	// TC->queue, ...) on every port of every switch are one map. No reader writes to a
	// decoded map.
	maps map[reflect.Type]map[string]decodedMap
	// lists are scratch lists to decode into, by type (see sliceDecoder).
	lists map[reflect.Type][]reflect.Value
	kept  []keptCounter // scratch of checkedCountersFact
	// unstable counts the scratch values being decoded into (list elements, map values),
	// whose place in memory is not where the value ends up; reused is non-zero while
	// decoding into a value that may hold something already (a key given twice), which
	// merges into it. Both are kept by the decoders rather than read from memory: reading a
	// fresh struct before writing it maps the kernel's zero page there, and the write is
	// then a second, copy-on-write fault (perf: +30,000 faults reading the 10k snapshot).
	unstable int
	reused   int
	opts     ReadOptions
}

type keptCounter struct {
	name string
	v    int64
}

func newPlanDecoder(opts ReadOptions) *planDecoder {
	return &planDecoder{strs: newInternTable(), lastOf: map[string]*platformDecoded{}, counters: map[string]counterName{}, maps: map[reflect.Type]map[string]decodedMap{}, lists: map[reflect.Type][]reflect.Value{}, opts: opts}
}

// decodeDevice decodes one device's JSON into d; errFallback means "use encoding/json".
func (dec *planDecoder) decodeDevice(line []byte, d *Device) error {
	dec.b, dec.i = line, 0
	dec.startDevice(line)
	defer dec.endDevice(line)
	if err := devicePlan.decode(dec, unsafe.Pointer(d)); err != nil {
		return err
	}
	dec.ws()
	if dec.i != len(dec.b) {
		return errFallback
	}
	dec.b = nil
	return nil
}

type decodeFunc func(dec *planDecoder, p unsafe.Pointer) error

type plan struct{ decode decodeFunc }

var (
	plans      sync.Map // reflect.Type -> *plan
	devicePlan = planFor(reflect.TypeFor[Device]())

	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
	jsonUnmarshaler = reflect.TypeFor[interface{ UnmarshalJSON([]byte) error }]()
)

// planFor builds (once) the plan of t. A type it cannot plan decodes as errFallback.
func planFor(t reflect.Type) *plan {
	if p, ok := plans.Load(t); ok {
		return p.(*plan)
	}
	p := &plan{}
	if actual, loaded := plans.LoadOrStore(t, p); loaded {
		return actual.(*plan)
	}
	p.decode = buildPlan(t) // recursive types find p, filled in before it is called
	return p
}

func fallback(*planDecoder, unsafe.Pointer) error { return errFallback }

func buildPlan(t reflect.Type) decodeFunc {
	if t == reflect.TypeFor[FactStatus]() {
		return decodeFactStatus
	}
	if t.Implements(jsonUnmarshaler) || reflect.PointerTo(t).Implements(jsonUnmarshaler) ||
		t.Implements(textUnmarshaler) || reflect.PointerTo(t).Implements(textUnmarshaler) {
		return fallback
	}
	switch t.Kind() {
	case reflect.String:
		return decodeString
	case reflect.Bool:
		return decodeBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return intDecoder(t)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return uintDecoder(t)
	case reflect.Float64:
		return decodeFloat64
	case reflect.Struct:
		return structDecoder(t)
	case reflect.Pointer:
		return pointerDecoder(t)
	case reflect.Slice:
		return sliceDecoder(t)
	case reflect.Array:
		return arrayDecoder(t)
	case reflect.Map:
		return mapDecoder(t)
	}
	return fallback
}

// --- scanning ---

func (dec *planDecoder) ws() {
	for dec.i < len(dec.b) {
		switch dec.b[dec.i] {
		case ' ', '\t', '\n', '\r':
			dec.i++
		default:
			return
		}
	}
}

// peek returns the next non-space byte (0 at the end).
func (dec *planDecoder) peek() byte {
	dec.ws()
	if dec.i < len(dec.b) {
		return dec.b[dec.i]
	}
	return 0
}

// null consumes a null literal if one is next.
func (dec *planDecoder) null() bool {
	if dec.peek() == 'n' && len(dec.b)-dec.i >= 4 && string(dec.b[dec.i:dec.i+4]) == "null" {
		dec.i += 4
		return true
	}
	return false
}

func (dec *planDecoder) expect(c byte) error {
	if dec.peek() != c {
		return errFallback
	}
	dec.i++
	return nil
}

// rawString returns the bytes between the quotes of the next string, which has no escape
// and is valid UTF-8 (else errFallback; errEscaped for an escape). They alias the line.
func (dec *planDecoder) rawString() ([]byte, error) {
	if dec.peek() != '"' {
		return nil, errFallback
	}
	start := dec.i + 1
	ascii := true
	j := plainASCII(dec.b, start)
	for ; j < len(dec.b); j++ {
		c := dec.b[j]
		switch {
		case c == '"':
			dec.i = j + 1
			s := dec.b[start:j]
			if !ascii && !utf8.Valid(s) {
				return nil, errFallback
			}
			return s, nil
		case c == '\\':
			return nil, errEscaped
		case c < 0x20:
			return nil, errFallback
		case c >= 0x80:
			ascii = false
		}
	}
	return nil, errFallback
}

var errEscaped = errors.New("escaped string")

// str decodes the next string, interning it.
func (dec *planDecoder) str() (string, error) {
	if dec.peek() != '"' {
		return "", errFallback
	}
	start, end := dec.i+1, dec.i+1
	if s, ok := dec.guessString(start); ok {
		return s, nil
	}
	// Find the closing quote (one not escaped) and look the raw text up: a string seen
	// before was validated and unescaped then.
	for {
		k := bytes.IndexByte(dec.b[end:], '"')
		if k < 0 {
			return "", errFallback
		}
		end += k
		backslashes := 0
		for j := end - 1; j >= start && dec.b[j] == '\\'; j-- {
			backslashes++
		}
		if backslashes%2 == 0 {
			break
		}
		end++
	}
	raw := dec.b[start:end]
	if len(raw) == 0 {
		dec.i = end + 1
		dec.cur.strs = append(dec.cur.strs, decodedString{})
		return "", nil
	}
	ds, ok, slot, hash := dec.strs.find(raw)
	if ok {
		dec.i = end + 1
		dec.cur.strs = append(dec.cur.strs, ds)
		return ds.val, nil
	}
	s, err := dec.rawString()
	if err == errEscaped {
		dec.i = start - 1
		s, err := dec.escaped()
		if err == nil {
			ds = decodedString{raw: string(raw), val: s}
			dec.strs.add(ds, slot, hash)
			dec.cur.strs = append(dec.cur.strs, ds)
		}
		return s, err
	}
	if err != nil {
		return "", err
	}
	text := string(s)
	ds = decodedString{raw: text, val: text}
	dec.strs.add(ds, slot, hash)
	dec.cur.strs = append(dec.cur.strs, ds)
	return text, nil
}

// counter is a host counter's name, and whether checks read it (IsSnapshotCounter, asked
// once per name: the same ~250 names on every port).
func (dec *planDecoder) counter(raw []byte) (string, bool) {
	if c, ok := dec.counters[string(raw)]; ok {
		return c.name, c.keep
	}
	name := string(raw)
	keep := IsSnapshotCounter(name)
	dec.counters[name] = counterName{name, keep}
	return name, keep
}

type counterName struct {
	name string
	keep bool
}

// escaped decodes a string with escapes (JSON's, as encoding/json writes them).
func (dec *planDecoder) escaped() (string, error) {
	dec.ws()
	dec.i++ // the quote
	sb := dec.scratch[:0]
	defer func() { dec.scratch = sb[:0] }()
	for dec.i < len(dec.b) {
		j := dec.i
		for j < len(dec.b) && dec.b[j] != '"' && dec.b[j] != '\\' && dec.b[j] >= 0x20 {
			j++
		}
		chunk := dec.b[dec.i:j]
		if !utf8.Valid(chunk) {
			return "", errFallback
		}
		sb = append(sb, chunk...)
		dec.i = j
		if j == len(dec.b) || dec.b[j] < 0x20 {
			return "", errFallback
		}
		if dec.b[j] == '"' {
			dec.i++
			return string(sb), nil
		}
		if j+1 >= len(dec.b) {
			return "", errFallback
		}
		switch e := dec.b[j+1]; e {
		case '"', '\\', '/':
			sb = append(sb, e)
		case 'b':
			sb = append(sb, '\b')
		case 'f':
			sb = append(sb, '\f')
		case 'n':
			sb = append(sb, '\n')
		case 'r':
			sb = append(sb, '\r')
		case 't':
			sb = append(sb, '\t')
		case 'u':
			r, n, ok := dec.unicodeEscape(j)
			if !ok {
				return "", errFallback
			}
			sb = utf8.AppendRune(sb, r)
			dec.i = j + n
			continue
		default:
			return "", errFallback
		}
		dec.i = j + 2
	}
	return "", errFallback
}

// unicodeEscape reads \uXXXX at j (a surrogate pair as one rune); n is the bytes read.
// A lone surrogate, which encoding/json replaces, falls back.
func (dec *planDecoder) unicodeEscape(j int) (rune, int, bool) {
	hex := func(at int) (rune, bool) {
		if at+6 > len(dec.b) || dec.b[at] != '\\' || dec.b[at+1] != 'u' {
			return 0, false
		}
		v, err := strconv.ParseUint(string(dec.b[at+2:at+6]), 16, 32)
		return rune(v), err == nil
	}
	r, ok := hex(j)
	if !ok {
		return 0, 0, false
	}
	if !utf16.IsSurrogate(r) {
		return r, 6, true
	}
	r2, ok := hex(j + 6)
	if !ok {
		return 0, 0, false
	}
	if dr := utf16.DecodeRune(r, r2); dr != utf8.RuneError {
		return dr, 12, true
	}
	return 0, 0, false
}

// number returns the next number literal's bytes; one not of JSON's grammar (which
// strconv would read, as "00" or "+1") is errFallback.
func (dec *planDecoder) number() ([]byte, error) {
	dec.ws()
	start := dec.i
	for dec.i < len(dec.b) {
		c := dec.b[dec.i]
		if (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' {
			dec.i++
			continue
		}
		break
	}
	if !validNumber(dec.b[start:dec.i]) {
		return nil, errFallback
	}
	return dec.b[start:dec.i], nil
}

// parseInt parses a JSON integer literal that fits an int64 (a fraction, an exponent or an
// overflow is not ok: those fall back).
func parseInt(b []byte) (int64, bool) {
	neg := false
	if len(b) > 0 && b[0] == '-' {
		neg, b = true, b[1:]
	}
	if len(b) == 0 || len(b) > 19 || (b[0] == '0' && len(b) > 1) {
		return 0, false
	}
	var v uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + uint64(c-'0') // 19 digits fit a uint64
	}
	switch {
	case neg && v <= 1<<63:
		return -int64(v), true
	case !neg && v < 1<<63:
		return int64(v), true
	}
	return 0, false
}

// extent finds where the object or list that starts at dec.i ends, by its brackets alone
// (strings passed over whole), without reading or validating it.
func (dec *planDecoder) extent() (int, bool) {
	if dec.peek() != '{' && dec.peek() != '[' {
		return 0, false
	}
	depth := 0
	for j := dec.i; j < len(dec.b); j++ {
		switch dec.b[j] {
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return j + 1, true
			}
		case '"':
			for {
				k := bytes.IndexByte(dec.b[j+1:], '"')
				if k < 0 {
					return 0, false
				}
				j += k + 1
				backslashes := 0
				for b := j - 1; dec.b[b] == '\\'; b-- {
					backslashes++
				}
				if backslashes%2 == 0 {
					break
				}
			}
		}
	}
	return 0, false
}

// skip passes over one value of any kind.
func (dec *planDecoder) skip() error {
	switch dec.peek() {
	case '"':
		start := dec.i
		if _, err := dec.rawString(); err == errEscaped {
			dec.i = start
			_, err = dec.escaped()
			return err
		} else {
			return err
		}
	case '{':
		dec.i++
		if dec.peek() == '}' {
			dec.i++
			return nil
		}
		for {
			if err := dec.skip(); err != nil { // the key
				return err
			}
			if err := dec.expect(':'); err != nil {
				return err
			}
			if err := dec.skip(); err != nil {
				return err
			}
			if more, err := dec.nextMember(); !more || err != nil {
				return err
			}
		}
	case '[':
		dec.i++
		if dec.peek() == ']' {
			dec.i++
			return nil
		}
		for {
			if err := dec.skip(); err != nil {
				return err
			}
			switch dec.peek() {
			case ',':
				dec.i++
			case ']':
				dec.i++
				return nil
			default:
				return errFallback
			}
		}
	case 't':
		return dec.literal("true")
	case 'f':
		return dec.literal("false")
	case 'n':
		return dec.literal("null")
	default:
		_, err := dec.number()
		return err
	}
}

func (dec *planDecoder) literal(lit string) error {
	if len(dec.b)-dec.i < len(lit) || string(dec.b[dec.i:dec.i+len(lit)]) != lit {
		return errFallback
	}
	dec.i += len(lit)
	return nil
}

// eachElem calls f for every element of a list; ok is false for null.
func (dec *planDecoder) eachElem(f func() error) error {
	if err := dec.expect('['); err != nil {
		return err
	}
	if dec.peek() == ']' {
		dec.i++
		return nil
	}
	for {
		if err := f(); err != nil {
			return err
		}
		switch dec.peek() {
		case ',':
			dec.i++
		case ']':
			dec.i++
			return nil
		default:
			return errFallback
		}
	}
}

// eachKey calls f with the raw bytes of every key of an object (no escapes), at its value.
func (dec *planDecoder) eachKey(f func(key []byte) error) error {
	if err := dec.expect('{'); err != nil {
		return err
	}
	if dec.peek() == '}' {
		dec.i++
		return nil
	}
	for {
		key, err := dec.rawString()
		if err != nil || string(key) == "known" {
			return errFallback // "known": perhaps an older snapshot's fact (legacyFacts)
		}
		if err := dec.expect(':'); err != nil {
			return err
		}
		if err := f(key); err != nil {
			return err
		}
		if more, err := dec.nextMember(); !more || err != nil {
			return err
		}
	}
}

// --- scalars (null leaves the value as it was, as encoding/json does) ---

func decodeString(dec *planDecoder, p unsafe.Pointer) error {
	if dec.null() {
		return nil
	}
	s, err := dec.str()
	if err != nil {
		return err
	}
	*(*string)(p) = s
	return nil
}

func decodeBool(dec *planDecoder, p unsafe.Pointer) error {
	switch dec.peek() {
	case 't':
		if err := dec.literal("true"); err != nil {
			return err
		}
		*(*bool)(p) = true
	case 'f':
		if err := dec.literal("false"); err != nil {
			return err
		}
		*(*bool)(p) = false
	case 'n':
		return dec.literal("null")
	default:
		return errFallback
	}
	return nil
}

func decodeFactStatus(dec *planDecoder, p unsafe.Pointer) error {
	if dec.null() {
		return nil
	}
	raw, err := dec.rawString()
	if err != nil {
		return errFallback
	}
	for i, n := range factStatusNames {
		if n == string(raw) {
			*(*FactStatus)(p) = FactStatus(i)
			return nil
		}
	}
	return errFallback
}

func intDecoder(t reflect.Type) decodeFunc {
	bits := t.Bits()
	lo, hi := int64(-1)<<(bits-1), int64(1)<<(bits-1)-1
	if bits == 64 {
		lo, hi = math.MinInt64, math.MaxInt64
	}
	return func(dec *planDecoder, p unsafe.Pointer) error {
		if dec.null() {
			return nil
		}
		num, err := dec.number()
		if err != nil {
			return err
		}
		v, ok := parseInt(num)
		if !ok || v < lo || v > hi {
			return errFallback
		}
		switch bits {
		case 8:
			*(*int8)(p) = int8(v)
		case 16:
			*(*int16)(p) = int16(v)
		case 32:
			*(*int32)(p) = int32(v)
		default:
			*(*int64)(p) = v
		}
		return nil
	}
}

func uintDecoder(t reflect.Type) decodeFunc {
	bits := t.Bits()
	return func(dec *planDecoder, p unsafe.Pointer) error {
		if dec.null() {
			return nil
		}
		num, err := dec.number()
		if err != nil {
			return err
		}
		v, ok := parseInt(num)
		if !ok || v < 0 || (bits < 64 && v >= int64(1)<<bits) {
			return errFallback
		}
		switch bits {
		case 8:
			*(*uint8)(p) = uint8(v)
		case 16:
			*(*uint16)(p) = uint16(v)
		case 32:
			*(*uint32)(p) = uint32(v)
		default:
			*(*uint64)(p) = uint64(v)
		}
		return nil
	}
}

func decodeFloat64(dec *planDecoder, p unsafe.Pointer) error {
	if dec.null() {
		return nil
	}
	num, err := dec.number()
	if err != nil {
		return err
	}
	if v, ok := parseInt(num); ok && v > -1<<53 && v < 1<<53 && (v != 0 || num[0] != '-') {
		*(*float64)(p) = float64(v) // exact, as ParseFloat would give
		return nil
	}
	v, err := strconv.ParseFloat(string(num), 64)
	if err != nil {
		return errFallback
	}
	*(*float64)(p) = v
	return nil
}

// --- composites ---

type planField struct {
	name   string
	index  int // in its struct's fields
	offset uintptr
	plan   *plan
	// keep filters the keys of a map[string]int64 field as they are read (nil: all).
	keep func(opts ReadOptions) func(string) bool
	// drop skips the field's value altogether when it says so.
	drop func(opts ReadOptions) bool
}

func structDecoder(t reflect.Type) decodeFunc {
	var fields []planField
	for i := range t.NumField() {
		sf := t.Field(i)
		if sf.Anonymous {
			return fallback // embedded fields follow rules this decoder does not
		}
		if !sf.IsExported() {
			continue
		}
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if strings.Contains(opts, "string") {
			return fallback
		}
		if name == "" {
			name = sf.Name
		}
		fp := planFor(sf.Type)
		if isFact(sf.Type) {
			fp = &plan{decode: factGuess(sf.Type, fp)}
		}
		fields = append(fields, planField{name: name, index: len(fields), offset: sf.Offset, plan: fp})
	}
	// What ReadOptions do not keep is never built (see trim). With CheckedCounters that is
	// also every switch-port counter, which no check reads (~100 MB at 10,000 devices).
	for i := range fields {
		switch {
		case t == reflect.TypeFor[SwitchPort]() && fields[i].name == "counters":
			fields[i].drop = func(o ReadOptions) bool { return o.CheckedCounters }
		case t == reflect.TypeFor[Device]() && fields[i].name == "transcript":
			fields[i].drop = func(o ReadOptions) bool { return !o.Transcripts }
		case t == reflect.TypeFor[HostPort]() && fields[i].name == "counters":
			fields[i].plan = &plan{decode: checkedCountersFact}
		}
	}
	byName := make(map[string]int, len(fields))
	for i, f := range fields {
		byName[f.name] = i
	}
	return func(dec *planDecoder, p unsafe.Pointer) error {
		if dec.null() {
			return nil
		}
		if err := dec.expect('{'); err != nil {
			return err
		}
		if dec.peek() == '}' {
			dec.i++
			return nil
		}
		next := 0               // keys come in field order from the writer: try the next field first
		var seen uint64         // the fields decoded in this object
		var seenPast64 []uint64 // and those past the 64th, in the rare struct that has them
		for {
			f, err := dec.fieldKey(fields, byName, next)
			if err != nil {
				return err
			}
			if err := dec.expect(':'); err != nil {
				return err
			}
			switch {
			case f == nil:
				err = dec.skip()
			case f.drop != nil && f.drop(dec.opts):
				next = f.index + 1
				err = dec.skip()
			default:
				next = f.index + 1
				// A key given twice merges into its first value, as in encoding/json; the
				// facts recorded while decoding the first (the next device's guesses) would
				// then carry the merge into another device. The writer never repeats a key:
				// such a line is encoding/json's.
				if seenField(&seen, &seenPast64, f.index) {
					return errFallback
				}
				err = f.plan.decode(dec, unsafe.Add(p, f.offset))
			}
			if err != nil {
				return err
			}
			if more, err := dec.nextMember(); !more || err != nil {
				return err
			}
		}
	}
}

// seenField marks field i seen and says whether it already was.
func seenField(seen *uint64, past64 *[]uint64, i int) bool {
	w, bit := seen, uint64(1)<<(i&63)
	if i >= 64 {
		k := i/64 - 1
		for len(*past64) <= k {
			*past64 = append(*past64, 0)
		}
		w = &(*past64)[k]
	}
	was := *w&bit != 0
	*w |= bit
	return was
}

// nextMember reads what follows an object's member: a comma (more is true) or the end.
func (dec *planDecoder) nextMember() (more bool, err error) {
	switch dec.peek() {
	case ',':
		dec.i++
		return true, nil
	case '}':
		dec.i++
		return false, nil
	}
	return false, errFallback
}

// fieldKey reads an object key and returns its field (nil: one to skip). The field
// expected next is matched in place, without reading the key as a string (keys were a
// sixth of decoding).
func (dec *planDecoder) fieldKey(fields []planField, byName map[string]int, next int) (*planField, error) {
	// The writer leaves out empty omitempty fields, so the key is most often a field after
	// the next: those are matched in place too (looking the key up by name was a third of
	// reading keys).
	if next < len(fields) && dec.peek() == '"' {
		for i := next; i < len(fields); i++ {
			name := fields[i].name
			if end := dec.i + 1 + len(name); end < len(dec.b) && dec.b[end] == '"' && string(dec.b[dec.i+1:end]) == name {
				dec.i = end + 1
				return &fields[i], nil
			}
		}
	}
	key, err := dec.rawString()
	if err != nil || string(key) == "known" {
		return nil, errFallback // "known": perhaps an older snapshot's fact (legacyFacts)
	}
	if i, ok := byName[string(key)]; ok {
		return &fields[i], nil
	}
	for _, f := range fields {
		if strings.EqualFold(f.name, string(key)) {
			return nil, errFallback // encoding/json would match it
		}
	}
	return nil, nil
}

// checkedCountersFact decodes a host port's Fact[map[string]int64], keeping only the
// counters checks read when the options say so (as PruneHostCounters would after).
func checkedCountersFact(dec *planDecoder, p unsafe.Pointer) error {
	if !dec.opts.CheckedCounters {
		return planFor(reflect.TypeFor[Fact[map[string]int64]]()).decode(dec, p)
	}
	f := (*Fact[map[string]int64])(p)
	if dec.null() {
		return nil
	}
	err := dec.eachKey(func(key []byte) error {
		switch string(key) {
		case "value":
			if dec.null() {
				f.Value = nil
				return nil
			}
			// The kept counters are gathered first so the map is made at its size: grown
			// insert by insert, its rehashing was a third of decoding them.
			kept := dec.kept[:0]
			err := dec.eachKey(func(k []byte) error {
				num, err := dec.number()
				if err != nil {
					return err
				}
				v, ok := parseInt(num)
				if !ok {
					return errFallback
				}
				if name, keep := dec.counter(k); keep {
					kept = append(kept, keptCounter{name, v})
				}
				return nil
			})
			dec.kept = kept[:0]
			if err != nil {
				return err
			}
			if f.Value == nil {
				f.Value = make(map[string]int64, len(kept))
			}
			for _, c := range kept {
				f.Value[c.name] = c.v
			}
			return nil
		case "status":
			return decodeFactStatus(dec, unsafe.Pointer(&f.Status))
		case "reason":
			return decodeString(dec, unsafe.Pointer(&f.Reason))
		case "source":
			return planFor(reflect.TypeFor[Evidence]()).decode(dec, unsafe.Pointer(&f.Source))
		}
		for _, n := range []string{"value", "status", "reason", "source"} {
			if strings.EqualFold(n, string(key)) {
				return errFallback
			}
		}
		return dec.skip()
	})
	return err
}

func pointerDecoder(t reflect.Type) decodeFunc {
	elem := t.Elem()
	ep := planFor(elem)
	return func(dec *planDecoder, p unsafe.Pointer) error {
		if dec.null() {
			*(*unsafe.Pointer)(p) = nil
			return nil
		}
		// What a pointer points to stays where it is, wherever the pointer is copied; it is
		// fresh when made here.
		unstable, reused := dec.unstable, dec.reused
		dec.unstable, dec.reused = 0, 0
		ptr := *(*unsafe.Pointer)(p)
		if ptr == nil {
			ptr = reflect.New(elem).UnsafePointer()
			*(*unsafe.Pointer)(p) = ptr
		} else {
			dec.reused = 1
		}
		err := ep.decode(dec, ptr)
		dec.unstable, dec.reused = unstable, reused
		return err
	}
}

func sliceDecoder(t reflect.Type) decodeFunc {
	elem := t.Elem()
	ep := planFor(elem)
	return func(dec *planDecoder, p unsafe.Pointer) error {
		v := reflect.NewAt(t, p).Elem()
		if dec.null() {
			v.SetZero()
			return nil
		}
		if !v.IsNil() {
			return errFallback // a repeated key: encoding/json decodes into what is there
		}
		// Elements are decoded into a reused scratch list, then copied to a list made at
		// its length: grown in place, the lists were a fifth of decoding's page faults
		// (perf: copy-on-write faults under reflect.Value.Grow) and held spare capacity.
		buf := dec.scratchList(t)
		n := 0
		reused := dec.reused
		dec.unstable++
		dec.reused = 0 // a new list's elements, zero
		err := dec.eachElem(func() error {
			if n == buf.Cap() {
				buf.Grow(1)
			}
			buf.SetLen(n + 1)
			n++
			return ep.decode(dec, buf.Index(n-1).Addr().UnsafePointer())
		})
		dec.unstable--
		dec.reused = reused
		if err == nil {
			list := reflect.MakeSlice(t, n, n) // [] is an empty list, not a missing one
			reflect.Copy(list, buf)
			v.Set(list)
		}
		buf.Clear() // what it pointed to now belongs to the list alone
		buf.SetLen(0)
		dec.lists[t] = append(dec.lists[t], buf)
		return err
	}
}

// scratchList returns an empty list of type t to decode into, off the stack of those of
// t not in use (a list's elements may hold lists of the same type).
func (dec *planDecoder) scratchList(t reflect.Type) reflect.Value {
	free := dec.lists[t]
	if len(free) == 0 {
		return reflect.New(t).Elem()
	}
	dec.lists[t] = free[:len(free)-1]
	return free[len(free)-1]
}

func arrayDecoder(t reflect.Type) decodeFunc {
	elem := t.Elem()
	ep := planFor(elem)
	size, length := elem.Size(), t.Len()
	return func(dec *planDecoder, p unsafe.Pointer) error {
		if dec.null() {
			return nil
		}
		n := 0
		err := dec.eachElem(func() error {
			if n >= length {
				n++
				return dec.skip()
			}
			err := ep.decode(dec, unsafe.Add(p, uintptr(n)*size))
			n++
			return err
		})
		if err != nil {
			return err
		}
		v := reflect.NewAt(t, p).Elem()
		for i := n; i < length; i++ {
			v.Index(i).SetZero()
		}
		return nil
	}
}

// mapDecoder decodes a map of type t, or finds the one already decoded from the same text.
func mapDecoder(t reflect.Type) decodeFunc {
	decode := mapValues(t)
	return func(dec *planDecoder, p unsafe.Pointer) error {
		if dec.null() {
			*(*unsafe.Pointer)(p) = nil
			return nil
		}
		if *(*unsafe.Pointer)(p) != nil {
			return errFallback // decoding into a map already there (a repeated key)
		}
		if dec.guessMap(t, p) {
			return nil
		}
		start := dec.i
		end, ok := dec.extent()
		if !ok {
			return errFallback
		}
		raw := dec.b[start:end]
		seen := dec.maps[t]
		if seen == nil {
			seen = map[string]decodedMap{}
			dec.maps[t] = seen
		}
		if dm, ok := seen[string(raw)]; ok {
			dec.i = end
			*(*unsafe.Pointer)(p) = dm.m
			dec.cur.maps = append(dec.cur.maps, dm)
			return nil
		}
		if err := decode(dec, p); err != nil {
			return err
		}
		if dec.i == end { // what extent found is what decoding read: valid, so shareable
			dm := decodedMap{t: t, raw: string(raw), m: *(*unsafe.Pointer)(p)}
			seen[dm.raw] = dm
			dec.cur.maps = append(dec.cur.maps, dm)
		}
		return nil
	}
}

func mapValues(t reflect.Type) decodeFunc {
	switch t {
	case reflect.TypeFor[map[int]int]():
		return intKeyMap(func(dec *planDecoder, m map[int]int, k int) error {
			if dec.null() {
				m[k] = 0
				return nil
			}
			num, err := dec.number()
			if err != nil {
				return err
			}
			v, ok := parseInt(num)
			if !ok {
				return errFallback
			}
			m[k] = int(v)
			return nil
		})
	case reflect.TypeFor[map[int]bool]():
		return intKeyMap(func(dec *planDecoder, m map[int]bool, k int) error {
			var b bool
			if err := decodeBool(dec, unsafe.Pointer(&b)); err != nil {
				return err
			}
			m[k] = b
			return nil
		})
	case reflect.TypeFor[map[int]string]():
		return intKeyMap(func(dec *planDecoder, m map[int]string, k int) error {
			var s string
			if err := decodeString(dec, unsafe.Pointer(&s)); err != nil {
				return err
			}
			m[k] = s
			return nil
		})
	}
	key, elem := t.Key(), t.Elem()
	if key.Implements(textUnmarshaler) || reflect.PointerTo(key).Implements(textUnmarshaler) {
		return fallback
	}
	var parseKey func([]byte) (reflect.Value, bool)
	switch key.Kind() {
	case reflect.String:
		parseKey = func(b []byte) (reflect.Value, bool) {
			return reflect.ValueOf(string(b)).Convert(key), true
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		parseKey = func(b []byte) (reflect.Value, bool) {
			n, ok := parseInt(b)
			if !ok {
				return reflect.Value{}, false
			}
			kv := reflect.New(key).Elem()
			if kv.OverflowInt(n) {
				return reflect.Value{}, false
			}
			kv.SetInt(n)
			return kv, true
		}
	default:
		return fallback
	}
	ep := planFor(elem)
	return func(dec *planDecoder, p unsafe.Pointer) error {
		m := reflect.NewAt(t, p).Elem()
		if dec.null() {
			m.SetZero()
			return nil
		}
		if m.IsNil() {
			m.Set(reflect.MakeMap(t))
		}
		ev := reflect.New(elem).Elem()
		reused := dec.reused
		dec.unstable++
		dec.reused = 0 // each value is decoded into ev, zeroed first
		defer func() { dec.unstable--; dec.reused = reused }()
		return dec.eachKey(func(kb []byte) error {
			k, ok := parseKey(kb)
			if !ok {
				return errFallback
			}
			ev.SetZero()
			if err := ep.decode(dec, ev.Addr().UnsafePointer()); err != nil {
				return err
			}
			m.SetMapIndex(k, ev)
			return nil
		})
	}
}

// intKeyMap decodes a map[int]V through put, which decodes one value.
func intKeyMap[V any](put func(dec *planDecoder, m map[int]V, k int) error) decodeFunc {
	return func(dec *planDecoder, p unsafe.Pointer) error {
		mp := (*map[int]V)(p)
		if dec.null() {
			*mp = nil
			return nil
		}
		if *mp == nil {
			*mp = map[int]V{}
		}
		m := *mp
		return dec.eachKey(func(kb []byte) error {
			k, ok := parseInt(kb)
			if !ok || k != int64(int(k)) {
				return errFallback
			}
			return put(dec, m, int(k))
		})
	}
}
