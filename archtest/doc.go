// Package archtest holds no code: its tests enforce which project packages may import which
// (data flows inventory -> collectors -> snapshot -> checks -> results -> reports, and the lab
// knows nothing of the auditor). `make lint` runs them.
package archtest
