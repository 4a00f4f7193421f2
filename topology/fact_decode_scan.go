package topology

import "encoding/binary"

// Scanning helpers of the planned decoder. Profiles of decoding a 10,000-device snapshot
// put a fifth of it in reading string bytes one at a time; eight at a time, most strings
// (ASCII names, commands, excerpts) are read in a few steps.

const (
	lows  = 0x0101010101010101
	highs = 0x8080808080808080
)

// plainASCII returns the index of the first byte of b from i on that is not plain
// printable ASCII other than '"' and '\\' (len(b) if there is none).
func plainASCII(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		v := binary.LittleEndian.Uint64(b[i:])
		// A byte is special when it is >= 0x80, < 0x20, '"' or '\\': each test sets the
		// high bit of such a byte (the zero-byte trick), with no false negatives.
		special := v | (v - 0x20*lows) | hasZero(v^('"'*lows)) | hasZero(v^('\\'*lows))
		if special&highs != 0 {
			break
		}
	}
	return i
}

// hasZero sets the high bit of each zero byte of v (and perhaps of bytes above one, which
// callers then read one at a time).
func hasZero(v uint64) uint64 { return (v - lows) &^ v }

// validNumber reports whether b is a JSON number, by its grammar:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func validNumber(b []byte) bool {
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(b, i)
	default:
		return false
	}
	if i < len(b) && b[i] == '.' {
		j := digits(b, i+1)
		if j == i+1 {
			return false
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			return false
		}
		i = j
	}
	return i == len(b)
}

func digits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}
