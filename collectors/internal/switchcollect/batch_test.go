package switchcollect

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/collectors"
)

// answers is a runner with one canned answer (or error) per command; it records what it is
// sent and can cancel a context after a given command.
type answers struct {
	out         map[string]collectors.Output
	err         map[string]error
	sent        []string
	cancelAfter string
	cancel      context.CancelFunc
}

func (a *answers) Run(_ context.Context, cmd string) (collectors.Output, error) {
	a.sent = append(a.sent, cmd)
	if cmd == a.cancelAfter {
		a.cancel()
	}
	if err, ok := a.err[cmd]; ok {
		return collectors.Output{}, err
	}
	return a.out[cmd], nil
}

func atoiLen(s string) (int, error) { return len(s), nil }

func TestRunKeepsEveryAnswerAndFailure(t *testing.T) {
	r := &answers{
		out: map[string]collectors.Output{
			"show ok":     {Stdout: "fine\n"},
			"show exit":   {ExitCode: 2, Stderr: "% Invalid input\n", Stdout: "  "},
			"show empty":  {Stdout: " \n"},
			"show silent": {Stdout: ""},
		},
		err: map[string]error{"show lost": errors.New("session closed")},
	}
	b := Batch{Platform: "demo", Commands: []string{"show ok", "show exit", "show empty", "show silent", "show lost"},
		MayBeEmpty: []string{"show silent"}}
	res, err := b.Run(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(b.Commands, r.sent); d != "" {
		t.Errorf("sent (-want +got):\n%s", d)
	}
	for cmd, want := range map[string]string{
		"show exit":  "show exit: exit status 2: % Invalid input",
		"show empty": "show empty: empty output",
		"show lost":  "show lost: session closed",
	} {
		if _, err := Parse(res, cmd, atoiLen); err == nil || err.Error() != want {
			t.Errorf("%s: error %v, want %q", cmd, err, want)
		}
	}
	if n, err := Parse(res, "show ok", atoiLen); err != nil || n != len("fine\n") {
		t.Errorf("show ok parsed to %d, %v", n, err)
	}
	if n, err := Parse(res, "show silent", atoiLen); err != nil || n != 0 {
		t.Errorf("an empty answer allowed by MayBeEmpty parses: %d, %v", n, err)
	}
	_, err = Parse(res, "show lost", atoiLen)
	if !errors.Is(err, r.err["show lost"]) {
		t.Errorf("a transport error stays wrapped: %v", err)
	}
}

func TestRunExcerptsALongFailure(t *testing.T) {
	r := &answers{out: map[string]collectors.Output{
		"a": {ExitCode: 1, Stderr: strings.Repeat("x", 400)},
		"b": {Stdout: "ok"},
	}}
	res, err := Batch{Platform: "demo", Commands: []string{"a", "b"}}.Run(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Parse(res, "a", atoiLen)
	if want := "a: exit status 1: " + strings.Repeat("x", 300) + "…"; err == nil || err.Error() != want {
		t.Errorf("got %v", err)
	}
}

func TestRunFailsWhenNothingAnswered(t *testing.T) {
	r := &answers{err: map[string]error{"a": errors.New("EOF")}, out: map[string]collectors.Output{"b": {ExitCode: 1}}}
	_, err := Batch{Platform: "demo", Commands: []string{"a", "b"}}.Run(context.Background(), r)
	want := "demo: no command succeeded: a: EOF\nb: exit status 1: "
	if err == nil || err.Error() != want {
		t.Fatalf("got %q, want %q", err, want)
	}
}

func TestRunStopsWhenTheContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := &answers{out: map[string]collectors.Output{"a": {Stdout: "x"}, "b": {Stdout: "y"}, "c": {Stdout: "z"}},
		cancelAfter: "b", cancel: cancel}
	_, err := Batch{Platform: "demo", Commands: []string{"a", "b", "c"}}.Run(ctx, r)
	if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), `demo: collection interrupted at "b": `) {
		t.Fatalf("got %v", err)
	}
	if d := cmp.Diff([]string{"a", "b"}, r.sent); d != "" {
		t.Errorf("sent after cancellation (-want +got):\n%s", d)
	}
}

func TestParse(t *testing.T) {
	r := &answers{out: map[string]collectors.Output{"a": {Stdout: "data"}}}
	res, err := Batch{Platform: "demo", Commands: []string{"a"}}.Run(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	bad := errors.New("not JSON")
	if _, err := Parse(res, "a", func(string) (int, error) { return 7, bad }); !errors.Is(err, bad) {
		t.Errorf("parse error: %v", err)
	}
	if n, err := Parse(res, "z", atoiLen); err == nil || n != 0 {
		t.Errorf("a command outside the batch: %d, %v; want an error", n, err)
	}
}
