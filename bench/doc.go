// Package bench holds roceaudit's benchmarks: the scale run of `make bench` (scale_test.go:
// a generated lab, the real binary as a child process, the floor the lab's latency sets,
// and the same commands through OpenSSH) and Go benchmarks of the parts that profiles of
// that run point at (parsers, redaction, the check engine, snapshot I/O).
package bench
