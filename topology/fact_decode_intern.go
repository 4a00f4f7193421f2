package topology

import (
	"hash/maphash"
	"unsafe"
)

// internTable is the planned decoder's table of the strings it decoded, by JSON text: an
// open-addressed table, not a map[string]decodedString. What the guesses (see
// fact_decode_repeat.go) leave to it is mostly strings new to it, ~100,000 at each reading
// worker of the 10k lab snapshot: a map probed cold control words and keys for each
// (maps.ctrlGroup.matchH2 ~8% of decoding), then hashed the key again to insert it, and
// rehashed every key each time it grew (table.rehash ~5%). Here a slot holds the text's
// length and 32 bits of its hash beside it (found or not in one cache line, mostly), the
// probe that missed is where the string goes, and growing moves slots by their stored hash.
// BenchmarkDecodeDevices (10 interleaved runs on a saturated machine): CPU median 394 ->
// 330 ms an op, min 308 -> 276 ms (p=0.1; wall time too noisy to tell that day).
type internTable struct {
	seed  maphash.Seed
	slots []internSlot // a power of two of them, at most half used
	used  int
}

// internSlot is 32 bytes: two to a cache line, never across one.
type internSlot struct {
	raw  *byte  // the JSON text between the quotes (nil: an empty slot)
	n    uint32 // its length
	hash uint32 // the high half of its 64-bit hash; its low bits place the slot
	val  string
}

func newInternTable() *internTable {
	return &internTable{seed: maphash.MakeSeed(), slots: newSlots(1 << 12)}
}

// newSlots makes n empty slots, written through once: a table is probed at random, and a
// fresh page first read there maps the kernel's zero page, so that the insert after it is
// a second, copy-on-write fault (perf: ~16,000 faults at the 10k snapshot's two tables).
func newSlots(n int) []internSlot {
	s := make([]internSlot, n)
	clear(unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), uintptr(n)*unsafe.Sizeof(s[0])))
	return s
}

// find looks raw up. When it is not there, slot is where add puts it.
func (t *internTable) find(raw []byte) (ds decodedString, ok bool, slot int, hash uint32) {
	hash = uint32(maphash.Bytes(t.seed, raw) >> 32)
	mask := len(t.slots) - 1
	for i := int(hash) & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.raw == nil {
			return decodedString{}, false, i, hash
		}
		if s.hash == hash && int(s.n) == len(raw) && unsafe.String(s.raw, s.n) == string(raw) {
			return decodedString{raw: unsafe.String(s.raw, s.n), val: s.val}, true, i, hash
		}
	}
}

// add puts ds, which find did not find, where it said. ds.raw must not be empty (the
// empty text is never looked up with escapes to decode, and an empty slot's raw is nil).
func (t *internTable) add(ds decodedString, slot int, hash uint32) {
	t.slots[slot] = internSlot{raw: unsafe.StringData(ds.raw), n: uint32(len(ds.raw)), hash: hash, val: ds.val}
	if t.used++; 2*t.used > len(t.slots) {
		t.grow()
	}
}

func (t *internTable) grow() {
	old := t.slots
	t.slots = newSlots(2 * len(old))
	mask := len(t.slots) - 1
	for _, s := range old {
		if s.raw == nil {
			continue
		}
		i := int(s.hash) & mask
		for t.slots[i].raw != nil {
			i = (i + 1) & mask
		}
		t.slots[i] = s
	}
}
