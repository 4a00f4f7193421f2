package checks

import "unsafe"

// touchZeroed writes zeros over s, which must be zero already (just made), as plain bytes,
// so that each page's first touch is a write (see eachDevice). Cleared as a []Result while
// the GC marks, every pointer would first be read for the write barrier: the read-then-write
// this avoids. Zeros over zeros change no pointer. It goes a window at a time: one clear of
// ~170 MB (10,000 devices) could not be preempted while it faulted every page in.
func touchZeroed(s []Result) {
	const window = (256 << 10) / int(unsafe.Sizeof(Result{}))
	for len(s) > 0 {
		n := min(len(s), window)
		clear(unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), uintptr(n)*unsafe.Sizeof(s[0])))
		s = s[n:]
	}
}
