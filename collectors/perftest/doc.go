// Package perftest builds and reads the test RDMA transfer: the exact ib_write_bw /
// ib_write_lat command lines (server and client, bounded by coreutils timeout), the read-only
// port check that picks a free out-of-band TCP port, parsers for perftest's result tables and
// --out_json file, and Diagnose, which turns perftest's failure texts into typed errors.
//
// Everything here is a pure function of text and small values; nothing is sent anywhere.
// Output formats follow public perftest samples and perftest's own format strings
// (src/perftest_parameters.[ch], src/perftest_communication.c); fixtures/perftest holds the
// samples the tests read, with provenance in fixtures/README.md ("perftest").
//
// Why verbs, not rdma_cm: the commands pin the RoCE v2 GID with -x and the ToS with --tclass.
// rdma_cm (-R) would pick the GID from the IP instead and only honours -T, so the two are never
// combined. The out-of-band TCP channel (the client's last argument) is IPv4: perftest before
// PR #218 (2023) resolves the server as IPv4 only and fails on an IPv6 literal (perftest PR #129
// shows the failure), newer releases need an extra flag on both sides, and which address
// carries that channel does not change the RDMA path, which the GID index decides.
package perftest
