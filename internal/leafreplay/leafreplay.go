// Package leafreplay carries a generated leaf's answers from the lab to a collector's
// per-parser benchmarks: labcheck writes them into $ROCEAUDIT_DUMP_LEAF (Dump), and a
// collector's BenchmarkLeaf reads them back (Load) and times each parser and Collect on them
// (Bench), with no emulator in the profile. It is imported by tests only.
package leafreplay

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/internal/benchcpu"
)

// DirEnv names the directory the answers are written to and read from.
const DirEnv = "ROCEAUDIT_DUMP_LEAF"

// fileName is the file of cmd's answer.
func fileName(cmd string) string { return strings.NewReplacer(" ", "_", "|", "").Replace(cmd) }

// dir is $DirEnv; tb is skipped without it.
func dir(tb testing.TB) string {
	d := os.Getenv(DirEnv)
	if d == "" {
		tb.Skip(DirEnv + " is not set")
	}
	return d
}

// Dump writes the answer r gives each of cmds that ran with exit 0, a file per command.
func Dump(t *testing.T, r collectors.Runner, cmds []string) {
	d := dir(t)
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range cmds {
		out, err := r.Run(context.Background(), cmd)
		if err != nil || out.ExitCode != 0 {
			continue
		}
		if err := os.WriteFile(filepath.Join(d, fileName(cmd)), []byte(out.Stdout), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Replies are the answers Dump wrote, by command: a Runner answering them with exit 0.
type Replies map[string]string

// Load reads the answers to cmds that Dump wrote.
func Load(b *testing.B, cmds []string) Replies {
	d := dir(b)
	res := Replies{}
	for _, cmd := range cmds {
		if out, err := os.ReadFile(filepath.Join(d, fileName(cmd))); err == nil {
			res[cmd] = string(out)
		}
	}
	return res
}

func (r Replies) Run(_ context.Context, cmd string) (collectors.Output, error) {
	return collectors.Output{Stdout: r[cmd]}, nil
}

// Parser is one command's parser, its result dropped.
type Parser struct {
	Cmd   string
	Parse func(string) error
}

// Bench times each parser on its command's answer, then collect on all of them.
func Bench(b *testing.B, r Replies, parsers []Parser, collect func(Replies) error) {
	for _, p := range parsers {
		b.Run(strings.Join(strings.Fields(p.Cmd)[1:], "_"), func(b *testing.B) {
			b.ReportAllocs()
			defer benchcpu.Report(b)()
			for b.Loop() {
				if err := p.Parse(r[p.Cmd]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("Collect", func(b *testing.B) {
		b.ReportAllocs()
		defer benchcpu.Report(b)()
		for b.Loop() {
			if err := collect(r); err != nil {
				b.Fatal(err)
			}
		}
	})
}
