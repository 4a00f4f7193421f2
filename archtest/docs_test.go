package archtest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// unpublishedRef matches a citation of a document users do not have: the developer contract,
// the research notes it was written from, or a path on the developers' machine. Text in the
// repository names the public source instead. This file, which spells the patterns out to
// test them, is the one file not searched.
var unpublishedRef = regexp.MustCompile(strings.Join([]string{
	`CONTRACT(\.md| §)`,
	`/work/` + `shared`,
	`shared/` + `reference`,
	`\b(hosts|switches|vendor-designs|prior-art|beyond-the-recipe)\.md`,
	`perftest-` + `real`,
	`\bnotes/[\w-]+\.md`,
}, "|"))

// Every tracked text file: a README, fixture note, help text, message or comment that cites
// an unpublished document leaves its reader with nothing to follow.
func TestNoCitationOfUnpublishedDocuments(t *testing.T) {
	out, err := exec.Command("git", "-C", "..", "ls-files", "-z").Output()
	if err != nil {
		t.Skipf("git ls-files: %v (not a git checkout)", err)
	}
	files := strings.Split(strings.TrimRight(string(out), "\x00"), "\x00")
	if len(files) < 10 {
		t.Fatalf("git ls-files listed %d files; the repository has more", len(files))
	}
	for _, name := range files {
		if name == "archtest/docs_test.go" {
			continue
		}
		b, err := os.ReadFile(filepath.Join("..", name))
		if err != nil {
			if os.IsNotExist(err) { // deleted in the work tree, not yet committed
				continue
			}
			t.Fatal(err)
		}
		if bytes.IndexByte(b, 0) >= 0 { // binary
			continue
		}
		for i, line := range strings.Split(string(b), "\n") {
			if m := unpublishedRef.FindString(line); m != "" {
				t.Errorf("%s:%d cites %q, which users do not have; name the public source", name, i+1, m)
			}
		}
	}
}

// The pattern must catch each kind of citation and leave ordinary text alone, or the test
// above proves nothing.
func TestUnpublishedRefPattern(t *testing.T) {
	for _, s := range []string{
		"see CONTRACT §4", "/work/shared/" + "CONTRACT.md", "(hosts.md §9.4)", "switches.md 1.3",
		"vendor-designs.md §1(d)", "prior-art.md B2", "beyond-the-recipe.md C6",
		"perftest-" + "real/README.md", "notes/linux-commands.md", "../shared/" + "reference/x",
	} {
		if !unpublishedRef.MatchString(s) {
			t.Errorf("%q is not caught", s)
		}
	}
	for _, s := range []string{
		"ACTION OF CONTRACT, TORT OR OTHERWISE", `strings.Contains(want, "CONTRACT")`,
		"fixtures/perftest/hostsmd/lat_rxe.txt", "nv_show_interface_qos_roce_status.5.10-switches-md.txt",
		"README.md", "fixtures/README.md",
	} {
		if unpublishedRef.MatchString(s) {
			t.Errorf("%q is caught but cites nothing unpublished", s)
		}
	}
}
