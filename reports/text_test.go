package reports

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/fatih/color"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/topology"
)

// TestTextColor: Options.Color alone decides, whatever fatih/color's global says (it looks at
// the process's stdout, which is not where a --report file goes).
func TestTextColor(t *testing.T) {
	saved := color.NoColor
	t.Cleanup(func() { color.NoColor = saved })
	for _, global := range []bool{true, false} {
		color.NoColor = global
		if out := render(t, "text", sampleReport(), Options{}); bytes.IndexByte(out, 0x1b) >= 0 {
			t.Errorf("NoColor=%v: text without Color has an ESC byte", global)
		}
		out := render(t, "text", sampleReport(), Options{Color: true})
		if bytes.IndexByte(out, 0x1b) < 0 {
			t.Errorf("NoColor=%v: text with Color has no ESC byte", global)
		}
		// Colour decorates; it must not change the words.
		plain := render(t, "text", sampleReport(), Options{})
		if got := stripANSI(string(out)); got != string(plain) {
			t.Errorf("NoColor=%v: coloured text differs from plain text beyond escape codes", global)
		}
	}
}

func stripANSI(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && s[j] != 'm' {
				j++
			}
			i = j
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func TestTextBannerAndSummary(t *testing.T) {
	r := sampleReport()
	out := string(render(t, "text", r, Options{}))
	if !strings.HasPrefix(out, SimulationBanner) || !strings.Contains(strings.SplitN(out, "\n", 2)[0], r.Note) {
		t.Errorf("simulated report does not open with the banner and note:\n%s", out)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if last := lines[len(lines)-1]; last != SummaryLine(r) {
		t.Errorf("last line = %q, want the summary %q", last, SummaryLine(r))
	}
	r.Simulated, r.Note = false, ""
	if out := string(render(t, "text", r, Options{})); strings.Contains(out, "SIMULATION") {
		t.Error("real-fabric report carries the simulation banner")
	}
}

func TestTextLayout(t *testing.T) {
	out := string(render(t, "text", sampleReport(), Options{Verbose: true}))
	for _, want := range []string{
		"spine2  nxos switch  UNREACHABLE: ssh: handshake failed: knownhosts: key mismatch",
		"    FAIL   SW-PFC  critical  lossless priorities 3,4 on Ethernet0; only 3 carries RoCE",
		"           expected: PFC on priority 3 only\n           actual:   PFC on priorities 3,4\n",
		"           evidence: $ show pfc priority\n",
		"           remediation:\n             sudo pfc config priority off 4 Ethernet0\n",
		"… 3 more lines",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q", want)
		}
	}
	// Device-level results first, then interfaces in natural order; fail before warn.
	order := []string{"gpu01  linux host", "PASS   COLLECT-REACH", "  ens1f0np0", "FAIL   HOST-PFC", "WARN   HOST-TOS", "  ens1f1np1", "gpu02  linux host"}
	last := -1
	for _, s := range order {
		i := strings.Index(out, s)
		if i <= last {
			t.Fatalf("%q is out of order (at %d, previous at %d)", s, i, last)
		}
		last = i
	}
	// The 9-line mlnx_qos excerpt is cut at 6 lines.
	if strings.Contains(out, "tsa: vendor") {
		t.Error("evidence excerpt not limited")
	}
}

func TestTextVerboseListsPasses(t *testing.T) {
	quiet := string(render(t, "text", sampleReport(), Options{}))
	verbose := string(render(t, "text", sampleReport(), Options{Verbose: true}))
	if strings.Contains(quiet, "PASS   HOST-MTU") {
		t.Error("passes listed one by one without Verbose")
	}
	for _, want := range []string{"    PASS   HOST-MTU  9000", "    PASS   LINK-MTU  9216 / 9214 (EOS IP MTU)"} {
		if !strings.Contains(verbose, want) {
			t.Errorf("verbose text lacks %q", want)
		}
	}
	if strings.Contains(verbose, "checks passed (") || strings.Contains(verbose, "skipped (-v lists each)") {
		t.Error("verbose text still collapses passes or skips")
	}
	if !strings.Contains(verbose, "    SKIP   SW-BUFFER  info  not applicable: no lossless buffer profile") {
		t.Error("verbose text does not list each skip")
	}
	// -v expands what the default leaves out: hop tables, the transfer table, counter deltas.
	for _, want := range []string{"      hop  device  in", "  from             to ", "  counters gpu01:ens1f0np0 -> gpu02:ens1f0np0: "} {
		if !strings.Contains(verbose, want) {
			t.Errorf("verbose text lacks %q", want)
		}
	}
}

func TestTextInterfaceOrder(t *testing.T) {
	r := &Report{Devices: []DeviceSummary{{Name: "leaf1", Reachable: true}}}
	for _, ifc := range []string{"Ethernet12", "Ethernet8", "", "Ethernet0"} {
		r.Results = append(r.Results, checks.Result{Check: "SW-MTU", Status: checks.Fail, Device: "leaf1", Interface: ifc,
			Evidence: &topology.Evidence{Command: "show interfaces"}})
	}
	out := string(render(t, "text", r, Options{}))
	a, b, c := strings.Index(out, "leaf1 Ethernet0\n"), strings.Index(out, "leaf1 Ethernet8\n"), strings.Index(out, "leaf1 Ethernet12\n")
	dev := strings.Index(out, "    FAIL   SW-MTU")
	if !(dev < a && a < b && b < c) {
		t.Errorf("want device-level, Ethernet0, Ethernet8, Ethernet12 in that order:\n%s", out)
	}
}

// TestTextDeviceEscapes: a switch that colours its CLI output, or a hostile one, must not put
// escape sequences on the operator's terminal through the evidence.
func TestTextDeviceEscapes(t *testing.T) {
	r := &Report{Results: []checks.Result{{
		Check: "SW-PFC", Status: checks.Fail, Device: "leaf1", Interface: "Ethernet0",
		Message:  "bad\x1b]0;pwned\x07",
		Evidence: &topology.Evidence{Command: "show pfc priority", Excerpt: "\x1b[1;31mEthernet0\x1b[0m    3,4\r\n"},
	}}}
	for _, format := range []string{"text", "markdown", "html"} {
		// Verbose: the default text has no evidence.
		out := render(t, format, r, Options{Verbose: true})
		if bytes.ContainsAny(out, "\x1b\x07\r") {
			t.Errorf("%s output carries control bytes from the device: %q", format, out)
		}
		if !bytes.Contains(out, []byte("Ethernet0    3,4")) {
			t.Errorf("%s output lost the text around the escape codes", format)
		}
	}
}

func TestNilReport(t *testing.T) {
	for _, f := range Formats() {
		rd, _ := Lookup(f)
		if err := rd.Render(&bytes.Buffer{}, nil, Options{}); err == nil {
			t.Errorf("%s: nil report rendered without error", f)
		}
	}
}

// The default text is the failures-only view: summary, causes, each finding once, skips
// counted by reason; devices and interfaces with nothing to act on are left out.
func TestTextDefaultIsShort(t *testing.T) {
	r := sampleReport()
	for _, dev := range []string{"leaf1", "leaf2"} {
		for i := range 3 {
			r.Results = append(r.Results, checks.Result{Check: "SW-DCBX", Status: checks.Skip, Device: dev,
				Interface: fmt.Sprintf("Ethernet%d", 40+i), Message: "not supported by the platform"})
		}
	}
	out := string(render(t, "text", r, Options{}))
	for _, want := range []string{
		"\n" + SummaryLine(r) + "\n\n6 causes explain 7 problems\n",
		"   1. gpu01 ens1f0np0 PFC: PFC on priorities 3,4 -> HOST-PFC, XFER-BW\n   2. spine2 reachability: host key mismatch -> COLLECT-REACH\n",
		"gpu02:ens1f0np0->gpu01:ens1f0np0 transfer: did not run -> XFER-RUN",
		"\nnot applicable: 7 skipped, for 2 reasons (-v lists each)\n\n",
		"waivers waivers.yaml\n  expired (line 9) check HOST-TOS, device *, interface * until 2026-01-31: applications set their own ToS\n" +
			"  unused  (line 13) check SW-MTU, device spine9, interface * until 2027-01-01: decommissioned (owner netops)\n",
		// Each failing object once, each finding on one line with its fix.
		"\ngpu02 ens1f0np0  linux host\n    FAIL   HOST-PAUSE  error  802.3x global pause is on; it pauses every priority and defeats PFC: RX on, TX on, expected RX off, TX off  fix: ethtool -A ens1f0np0 autoneg off rx off tx off\n",
		"    FAIL   SW-PFC  critical  lossless priorities 3,4 on Ethernet0; only 3 carries RoCE: PFC on priorities 3,4, expected PFC on priority 3 only\n           fix: sudo pfc config priority off 4 Ethernet0\n                sudo config save -y\n",
		// Paths and transfers one line each.
		"\npaths\n  gpu01:ens1f0np0 -> gpu02:ens1f0np0: 2 equal-cost paths via leaf1>spine1>leaf2, leaf1>spine2>leaf2\n\n",
		// Measured latency (--latency) on the transfer's line; none where it was not measured.
		"\ntransfers\n  gpu01:ens1f0np0 -> gpu02:ens1f0np0: 41.3 of 100 Gb/s, latency 2.1 us typical, 3.4 us p99\n  gpu02:ens1f0np0 -> gpu01:ens1f0np0: did not run: perftest: perftest is not installed",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("short text lacks %q:\n%s", want, out)
		}
	}
	for _, not := range []string{"PASS ", "ok     ", "SKIP ", "spine1  eos switch", "ens1f1np1\n", " 0 Gb/s",
		"evidence:", "expected:", "remediation:", "hop  device", "counters ", "GID index  bandwidth", "     6  SW-DCBX"} {
		if strings.Contains(out, not) {
			t.Errorf("short text has %q", not)
		}
	}
	// spine2's error is in its heading only, not again under COLLECT-REACH.
	if n := strings.Count(out, "knownhosts: key mismatch"); n != 1 {
		t.Errorf("unreachable device's error printed %d times, want once:\n%s", n, out)
	}
}

// One mistyped interface fails every check with the same error: one finding, every check named.
func TestTextCollapsesTheSameError(t *testing.T) {
	r := &Report{Devices: []DeviceSummary{{Name: "gpu01", Reachable: true}}}
	for _, c := range []string{"HOST-MTU", "HOST-PFC", "HOST-TRUST"} {
		r.Results = append(r.Results, checks.Result{Check: c, Status: checks.Error, Severity: checks.Critical, Device: "gpu01",
			Interface: "ens9", Actual: "unknown", Message: "no netdev ens9", Evidence: &topology.Evidence{Command: "ip -j link", Error: "ens9 does not exist"}})
	}
	out := string(render(t, "text", r, Options{}))
	if strings.Count(out, "ens9 does not exist") != 1 || !strings.Contains(out, "ERROR  HOST-MTU, HOST-PFC, HOST-TRUST  critical  no netdev ens9") {
		t.Errorf("the same error is not collapsed:\n%s", out)
	}
}

// --all-paths runs of one pair differ only by their member: -v shows it in the table and in
// each counters line, so two rows never read the same.
func TestTextVerboseTransfersNameTheirMember(t *testing.T) {
	r := sampleReport()
	if len(r.Transfers) == 0 {
		t.Fatal("the sample report has no transfer")
	}
	one := r.Transfers[0]
	a, b := one, one
	a.Member, a.FlowLabel = "path 1 via spine1", 1
	b.Member, b.FlowLabel = "path 2 via spine2", 2
	r.Transfers = []Transfer{a, b}
	out := string(render(t, "text", r, Options{Verbose: true}))
	for _, want := range []string{"member (flow label)", "path 1 via spine1 (1)", "path 2 via spine2 (2)",
		"counters " + one.From + " -> " + one.To + " (path 2 via spine2): "} {
		if !strings.Contains(out, want) {
			t.Errorf("verbose text lacks %q", want)
		}
	}
	if plain := string(render(t, "text", sampleReport(), Options{Verbose: true})); strings.Contains(plain, "member (flow label)") {
		t.Error("a member column without any member")
	}
}
