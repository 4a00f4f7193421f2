package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHelperProcess is roceaudit as a process of its own when ROCEAUDIT_HELPER is set (see
// runProcess); otherwise it does nothing.
func TestHelperProcess(t *testing.T) {
	if os.Getenv("ROCEAUDIT_HELPER") != "1" {
		return
	}
	args := os.Args
	for i, a := range args {
		if a == "--" {
			args = args[i+1:]
			break
		}
	}
	os.Exit(Main(context.Background(), args, os.Stdin, os.Stdout, os.Stderr))
}

// runProcess runs roceaudit as a child process whose stdout is stdout (a pipe when it is a
// buffer, the file itself when it is an *os.File): /dev/stdout is then what a shell gives it.
func runProcess(t *testing.T, stdout any, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], append([]string{"-test.run=^TestHelperProcess$", "--"}, args...)...)
	cmd.Env = append(os.Environ(), "ROCEAUDIT_HELPER=1")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	switch w := stdout.(type) {
	case *os.File:
		cmd.Stdout = w
	case *bytes.Buffer:
		cmd.Stdout = w
	}
	var ee *exec.ExitError
	if err := cmd.Run(); err != nil && !errors.As(err, &ee) {
		t.Fatalf("%v: %v", args, err)
	}
	return cmd.ProcessState.ExitCode(), errb.String()
}

// /dev/stdout is written through whatever stdout is: a pipe gets the report after the
// summary line (it used to fail on the pipe's link text, pipe:[N]), and a file stdout is
// redirected to keeps both, the same file (it used to be renamed over).
func TestReportToDevStdout(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd/1"); err != nil {
		t.Skip("no /proc")
	}
	l := startLab(t, "healthy")

	var piped bytes.Buffer
	code, errs := runProcess(t, &piped, "audit", "-i", l.InventoryPath, "--quiet", "--report", "json=/dev/stdout")
	summary, report, _ := strings.Cut(piped.String(), "\n")
	if code != exitOK || !strings.Contains(summary, "0 failed") {
		t.Fatalf("piped: exit %d, stdout %.200q, stderr %s", code, piped.String(), errs)
	}
	decodeReport(t, report)

	var snap bytes.Buffer
	code, errs = runProcess(t, &snap, "collect", "-i", l.InventoryPath, "-o", "/dev/stdout")
	if code != exitOK || snap.Len() == 0 {
		t.Fatalf("collect -o /dev/stdout, piped: exit %d, %d bytes, stderr %s", code, snap.Len(), errs)
	}
	snapFile := writeFile(t, t.TempDir(), "snap.json", snap.String())
	if code, _, errs := run(t, "check", snapFile, "--quiet"); code != exitOK {
		t.Errorf("the piped snapshot does not check: exit %d, %s", code, errs)
	}

	out := filepath.Join(t.TempDir(), "out.txt")
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	before, _ := f.Stat()
	code, errs = runProcess(t, f, "audit", "-i", l.InventoryPath, "--quiet", "--report", "json=/dev/stdout")
	after, err := os.Stat(out)
	if code != exitOK || err != nil || !os.SameFile(before, after) {
		t.Fatalf("redirected: exit %d (%s), the file replaced: %v", code, errs, err == nil && !os.SameFile(before, after))
	}
	data, _ := os.ReadFile(out)
	summary, report, _ = strings.Cut(string(data), "\n")
	if !strings.Contains(summary, "0 failed") {
		t.Errorf("the summary line was lost: %.200q", data)
	}
	decodeReport(t, report)
}

// goneSnapshot is a snapshot of goneInventory (its one host unreachable), and that inventory.
func goneSnapshot(t *testing.T) (snap, inv string) {
	t.Helper()
	inv = goneInventory(t)
	snap = filepath.Join(t.TempDir(), "snap.json")
	if code, _, errs := run(t, "collect", "-i", inv, "-o", snap); code != exitIncomplete {
		t.Fatalf("collect: exit %d: %s", code, errs)
	}
	return snap, inv
}

// An output that is one of the run's inputs, or another output, is refused before anything
// is collected, by file identity (a symlink or hard link to it too); the input is untouched.
func TestOutputsThatWouldOverwriteInputsAreRefused(t *testing.T) {
	snap, inv := goneSnapshot(t)
	dir := t.TempDir()
	snapLink, snapHard := filepath.Join(dir, "latest.json"), filepath.Join(dir, "hard.json")
	if err := os.Symlink(snap, snapLink); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(snap, snapHard); err != nil {
		t.Fatal(err)
	}
	waivers := writeFile(t, dir, "waivers.yaml", "waivers: []\n")
	x := filepath.Join(dir, "x")
	knownHosts := filepath.Join(filepath.Dir(inv), "known_hosts")
	if err := os.WriteFile(knownHosts, []byte("# none yet\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	inputs := []string{snap, inv, waivers, knownHosts}
	held := map[string]string{}
	for _, p := range inputs {
		b, _ := os.ReadFile(p)
		held[p] = string(b)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"check", snap, "--report", "json=" + snap}, "--report json=" + snap + " would overwrite the snapshot " + snap},
		{[]string{"check", snap, "--report", "html=" + snapLink}, "would overwrite the snapshot"},
		{[]string{"check", snap, "--report", "html=" + snapHard}, "would overwrite the snapshot"},
		{[]string{"audit", "-i", inv, "--report", "text=" + inv}, "--report text=" + inv + " would overwrite the inventory " + inv},
		{[]string{"transfer", "-i", inv, "gone01", "10.0.0.1", "--report", "json=" + knownHosts}, "would overwrite the known_hosts file"},
		{[]string{"collect", "-i", inv, "-o", inv}, "-o " + inv + " would overwrite the inventory"},
		{[]string{"audit", "-i", inv, "--waivers", waivers, "--report", "json=" + waivers}, "would overwrite the waivers file"},
		{[]string{"audit", "-i", inv, "--report", "json=" + x, "--report", "text=" + filepath.Join(dir, ".", "x")}, "name the same file"},
	} {
		code, _, errs := run(t, tc.args...)
		if code != exitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, errs, exitUsage, tc.want)
		}
	}
	for _, p := range inputs {
		if b, _ := os.ReadFile(p); string(b) != held[p] {
			t.Errorf("%s was changed", p)
		}
	}
	if _, err := os.Stat(x); err == nil {
		t.Error("a refused run wrote a report")
	}
	// A stream may take several reports.
	if code, _, errs := run(t, "check", snap, "--quiet", "--report", "json="+os.DevNull, "--report", "text="+os.DevNull); code != exitIncomplete {
		t.Errorf("two reports to %s: exit %d, %s", os.DevNull, code, errs)
	}
}

// A report that cannot be written is found before collecting where it can be; one that fails
// at the end does not stop the others, and the error still says the audit's verdict.
func TestEveryReportThatCanBeWrittenIsWritten(t *testing.T) {
	snap, inv := goneSnapshot(t)
	dir := t.TempDir()
	if _, err := os.Stat("/proc/self"); err == nil {
		after := filepath.Join(dir, "early.txt")
		code, _, errs := run(t, "audit", "-i", inv, "--quiet", "--report", "json=/proc/r.json", "--report", "text="+after)
		if code != exitUsage || !strings.Contains(errs, "cannot create a file in folder /proc") {
			t.Errorf("/proc/r.json: exit %d, stderr %q", code, errs)
		}
		if _, err := os.Stat(after); err == nil {
			t.Error("the run went on after a report was refused")
		}
	}
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full: nothing passes the check yet fails to write")
	}
	after := filepath.Join(dir, "after.txt")
	code, _, errs := run(t, "check", snap, "--quiet", "--report", "json=/dev/full", "--report", "text="+after)
	if code != exitUsage {
		t.Errorf("exit %d, want %d: %s", code, exitUsage, errs)
	}
	for _, want := range []string{"writing json report /dev/full: ", "1 of 2 --report files not written", "audit incomplete (exit 3 had every report been written)"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr %q lacks %q", errs, want)
		}
	}
	if b, err := os.ReadFile(after); err != nil || !strings.Contains(string(b), "gone01") {
		t.Errorf("the report after the failed one: %v %.100q", err, b)
	}
}

// Replacing a report keeps its mode: a private report does not become world-readable.
func TestReplacedReportKeepsItsMode(t *testing.T) {
	snap, _ := goneSnapshot(t)
	p := filepath.Join(t.TempDir(), "private.json")
	if err := os.WriteFile(p, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := run(t, "check", snap, "--quiet", "--report", "json="+p); code != exitIncomplete {
		t.Fatalf("exit %d: %s", code, errs)
	}
	st, err := os.Stat(p)
	if err != nil || st.Mode().Perm() != 0o600 || st.Size() < 100 {
		t.Errorf("after the report: %v, mode %v, %d bytes", err, st.Mode().Perm(), st.Size())
	}
}

// check judges --path endpoints against the snapshot's devices as audit does against the
// inventory: a typo is a usage error, not a path that does not resolve.
func TestCheckRefusesBadEndpoints(t *testing.T) {
	snap, inv := goneSnapshot(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"check", snap, "--path", "gone01,nosuch"}, `--path gone01,nosuch: unknown host "nosuch"`},
		{[]string{"audit", "-i", inv, "--path", "gone01,nosuch"}, `--path gone01,nosuch: unknown host "nosuch"`},
		{[]string{"check", snap, "--path", "gone01,gone01"}, "both ends are gone01"},
	} {
		code, _, errs := run(t, tc.args...)
		if code != exitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, errs, exitUsage, tc.want)
		}
	}
}

// cobra takes a flag usage's back-quoted text as its value's name.
func TestCollectHelpNamesTheShardValue(t *testing.T) {
	code, out, _ := run(t, "collect", "--help")
	if code != exitOK || !strings.Contains(out, "--shard K/N ") {
		t.Errorf("exit %d, help:\n%s", code, out)
	}
}

// The --defaults overlay of an imported inventory is an input too.
func TestReportOverTheDefaultsFileIsRefused(t *testing.T) {
	dir := t.TempDir()
	hosts := writeFile(t, dir, "hosts", "[gpus]\ngpu1 ansible_host=127.0.0.1 ansible_port=1\n")
	ov := writeFile(t, dir, "conn.yaml", "defaults: {user: ops}\n")
	code, _, errs := run(t, "audit", "-i", "ansible:"+hosts, "--defaults", ov, "--report", "text="+ov)
	if b, _ := os.ReadFile(ov); code != exitUsage || !strings.Contains(errs, "would overwrite the --defaults file "+ov) || string(b) != "defaults: {user: ops}\n" {
		t.Errorf("exit %d, stderr %q, overlay now %q", code, errs, b)
	}
}
