package switchcollect

import (
	"context"
	"slices"
	"testing"

	"github.com/roceaudit/roceaudit/collectors"
)

func TestForPort(t *testing.T) {
	got := ForPort([]string{"nv show system", "nv show interface swp1 link", "nv show interface swp1 counters qos -o json", "nv show interface swp10 link"}, "swp1", "swp52")
	want := []string{"nv show interface swp52 link", "nv show interface swp52 counters qos -o json"}
	if !slices.Equal(got, want) {
		t.Errorf("ForPort = %q, want %q", got, want)
	}
}

// answerAll answers every command with nothing.
type answerAll struct{}

func (answerAll) Run(context.Context, string) (collectors.Output, error) {
	return collectors.Output{}, nil
}

func TestSentRecordsInOrder(t *testing.T) {
	s := &Sent{Next: answerAll{}}
	for _, c := range []string{"echo 1", "echo 2"} {
		_, _ = s.Run(context.Background(), c)
	}
	if got := s.Commands(); !slices.Equal(got, []string{"echo 1", "echo 2"}) {
		t.Errorf("Commands = %q", got)
	}
}
