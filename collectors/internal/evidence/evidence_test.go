package evidence

import (
	"context"
	"errors"
	"strconv"
	"testing"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/topology"
)

// answer is a runner with a single canned answer.
type answer struct {
	out collectors.Output
	err error
}

func (a answer) Run(context.Context, string) (collectors.Output, error) { return a.out, a.err }

func TestRun(t *testing.T) {
	for _, tc := range []struct {
		name    string
		r       answer
		wantOut string
		wantErr string
	}{
		{"answer", answer{out: collectors.Output{Stdout: "data\n", Stderr: "warning"}}, "data\n", ""},
		{"empty answer", answer{out: collectors.Output{}}, "", ""},
		{"transport", answer{err: errors.New("session closed")}, "", "show x: session closed"},
		{"exit with stderr", answer{out: collectors.Output{ExitCode: 2, Stderr: "\n  Usage: show x\n", Stdout: "ignored"}},
			"", "show x: exit status 2: Usage: show x"},
		{"exit with stdout only", answer{out: collectors.Output{ExitCode: 1, Stderr: "  \n", Stdout: "Error: a\nb\nc\nd\n"}},
			"", "show x: exit status 1: Error: a | b | c | ..."},
		{"exit, three lines", answer{out: collectors.Output{ExitCode: 1, Stderr: "a\nb\nc"}},
			"", "show x: exit status 1: a | b | c"},
	} {
		out, ev := Run(context.Background(), tc.r, "show x")
		if out != tc.wantOut || ev != (topology.Evidence{Command: "show x", Error: tc.wantErr}) {
			t.Errorf("%s: got %q, %+v; want %q, error %q", tc.name, out, ev, tc.wantOut, tc.wantErr)
		}
	}
}

func TestRead(t *testing.T) {
	n, ev := Read(context.Background(), answer{out: collectors.Output{Stdout: "42"}}, "show n", strconv.Atoi)
	if n != 42 || ev != (topology.Evidence{Command: "show n"}) {
		t.Errorf("parsed: %d, %+v", n, ev)
	}
	n, ev = Read(context.Background(), answer{out: collectors.Output{Stdout: "x"}}, "show n",
		func(string) (int, error) { return 7, errors.New("show n: not a number") })
	if n != 7 || ev != (topology.Evidence{Command: "show n", Error: "show n: not a number"}) {
		t.Errorf("parse error: %d, %+v", n, ev)
	}
	called := false
	n, ev = Read(context.Background(), answer{err: errors.New("EOF")}, "show n",
		func(string) (int, error) { called = true; return 1, nil })
	if called || n != 0 || ev.Error != "show n: EOF" {
		t.Errorf("failed command: parse called %v, %d, %+v", called, n, ev)
	}
}
