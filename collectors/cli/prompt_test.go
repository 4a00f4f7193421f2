package cli

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/collectors"
)

// Only the prompt that ends a reply is stripped: a line inside the output that looks like a
// prompt (a banner, a description ending in "#") is what the device printed and stays, and
// the blank lines between the output and the prompt go, as they did with scrapligo's strip.
func TestRunStripsOnlyTheClosingPrompt(t *testing.T) {
	const reply = "interface Ethernet1\nuplink-to-spine#\n   mtu 9214\n\n"
	f := setup(t, "leaf1#", eosInvalid, map[string]string{"show lldp neighbors": reply})
	s := dial(t, f.cfg, "eos")
	defer s.Close()
	out := run(t, s, "show lldp neighbors")
	want := collectors.Output{Stdout: "interface Ethernet1\nuplink-to-spine#\n   mtu 9214\n"}
	if diff := cmp.Diff(want, out); diff != "" {
		t.Fatalf("output (-want +got):\n%s", diff)
	}
}
