package perftest

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

// fixtureRoot is fixtures/perftest relative to this package.
var fixtureRoot = filepath.Join("..", "..", "fixtures", "perftest")

func readFixture(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtureRoot, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func near(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}
