package inventory

import (
	"slices"
	"strings"
	"testing"
)

// A --limit value splits as Ansible's split_host_pattern splits it: on commas when it has
// one, else on colons unless the whole reads as an address or a host range.
func TestSplitHostPattern(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"fabric:!spine", []string{"fabric", "!spine"}},
		{"gpu:&gpu01", []string{"gpu", "&gpu01"}},
		{"~leaf0[12]", []string{"~leaf0[12]"}},
		{"gpu[1:3]:&rack1", []string{"gpu[1:3]", "&rack1"}},
		{"leaf[01:10]", []string{"leaf[01:10]"}},
		{"leaf[a:c].example.net", []string{"leaf[a:c].example.net"}},
		{"2001:db8::1", []string{"2001:db8::1"}},
		{"[2001:db8::1]:22", []string{"[2001:db8::1]:22"}},
		{"fe80::[1:3]", []string{"fe80::[1:3]"}},
		{"10.0.0.1:22", []string{"10.0.0.1:22"}},
		{"leaf1:22", []string{"leaf1:22"}},
		{"a:b,c", []string{"a:b", "c"}}, // a comma wins: no colon splitting
		{" leaves , gpus ", []string{"leaves", "gpus"}},
		{"leaf-:spine_", []string{"leaf-", "spine_"}}, // not host names: a label ends alphanumeric
		{"::", []string{"::"}},
	} {
		if got := splitHostPattern(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("%q: %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestSelectDevicesPatterns(t *testing.T) {
	names := []string{"leaf01", "leaf02", "leaf03", "spine1", "gpu01", "gpu02"}
	groups := map[string][]string{
		"leaf01": {"fabric", "leaves"}, "leaf02": {"fabric", "leaves"}, "leaf03": {"fabric", "leaves"},
		"spine1": {"fabric", "spine"}, "gpu01": {"gpu"}, "gpu02": {"gpu"},
	}
	for _, tc := range []struct {
		limit []string
		want  []string
	}{
		{[]string{"fabric:!spine"}, []string{"leaf01", "leaf02", "leaf03"}},
		{[]string{"gpu:&gpu01"}, []string{"gpu01"}},
		{[]string{"~leaf0[12]"}, []string{"leaf01", "leaf02"}},
		{[]string{"~lea"}, []string{"leaf01", "leaf02", "leaf03"}}, // re.match: anchored at the start only
		{[]string{"all:!fabric"}, []string{"gpu01", "gpu02"}},
		{[]string{"~^sp|gpu02"}, []string{"spine1", "gpu02"}},
	} {
		keep, err := selectDevices(tc.limit, names, groups)
		if err != nil {
			t.Errorf("%q: %v", tc.limit, err)
			continue
		}
		got := slices.DeleteFunc(slices.Clone(names), func(n string) bool { return !keep[n] })
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q: %q, want %q", tc.limit, got, tc.want)
		}
	}
	for _, tc := range []struct{ limit, want string }{
		{"~leaf(", `--limit "~leaf(": not a regular expression`},
		{"fabric:!spnie", `--limit "!spnie" matches no device or group`},
		{":", `--limit ":": no pattern`},
	} {
		_, err := selectDevices([]string{tc.limit}, names, groups)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.limit, err, tc.want)
		}
	}
}
