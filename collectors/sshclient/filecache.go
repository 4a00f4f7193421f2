package sshclient

import (
	"crypto/sha256"
	"os"
	"sync"
)

// parsedFile shares one parse of a file among the dials of a run for as long as the file
// holds the same bytes: every dial reads the file again (microseconds) and parses it only
// when its content changed. Parsing an RSA identity is the costly case: 4.3 ms of CPU for a
// 3072-bit key and 7.6 ms for 4096 bits (crypto/rsa checks the key as it loads), more than
// the rest of a device's collection, once per device. A digest, not the bytes, is kept: an
// identity file is a secret.
type parsedFile[T any] struct {
	mu sync.Mutex
	m  map[string]fileParse[T]
}

type fileParse[T any] struct {
	sum [sha256.Size]byte
	v   T
	err error
}

// load is parse(content of path), from the cache when path holds what it held then. A file
// that cannot be read is not cached: its read error is returned as it is; nor is one whose
// content shareable (when set) refuses. A parse's error comes as a parseError.
func (c *parsedFile[T]) load(path string, parse func([]byte) (T, error), shareable func([]byte) bool) (T, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		var zero T
		return zero, err
	}
	if shareable != nil && !shareable(b) {
		return parseOf(parse, b)
	}
	sum := sha256.Sum256(b)
	c.mu.Lock()
	defer c.mu.Unlock() // concurrent first dials wait for the one parse
	if p, ok := c.m[path]; ok && p.sum == sum {
		return p.v, p.err
	}
	v, err := parseOf(parse, b)
	if c.m == nil {
		c.m = map[string]fileParse[T]{}
	}
	c.m[path] = fileParse[T]{sum: sum, v: v, err: err}
	return v, err
}

// parseOf is parse(b), its error a parseError.
func parseOf[T any](parse func([]byte) (T, error), b []byte) (T, error) {
	v, err := parse(b)
	if err != nil {
		err = parseError{err}
	}
	return v, err
}

// parseError is a file's content failing its parse, told apart from failing to read it. It
// reads and unwraps as the parse's own error.
type parseError struct{ err error }

func (e parseError) Error() string { return e.err.Error() }
func (e parseError) Unwrap() error { return e.err }
