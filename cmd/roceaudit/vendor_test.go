package main

// Vendor designs end to end: each vendor scenario of the lab (lab/scenarios_vendor.go) renders
// one vendor's published RoCE configuration; the demo over SSH must pass it wherever it meets
// the recipe and report exactly where it departs. Sources: fixtures/README.md "Vendor designs".

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/lab"
	"github.com/roceaudit/roceaudit/reports"
)

// departure is one expected non-pass result: its key as keys() spells it and what its message
// (or, with inEvidence, its evidence excerpt as well) must say about how the design departs.
type departure struct {
	key, says  string
	inEvidence string
}

// sonicDefaultDepartures are SONiC's default QoS (sonic-buildimage qos_config.j2, AZURE maps)
// against hosts on the recipe (DSCP 26, priority 3).
func sonicDefaultDepartures() []departure {
	var out []departure
	ports := map[string][]string{
		"leaf1":  {"Ethernet0", "Ethernet4", "Ethernet8", "Ethernet12", "Ethernet16"},
		"leaf2":  {"Ethernet0", "Ethernet4", "Ethernet8", "Ethernet12", "Ethernet16"},
		"spine1": {"Ethernet0", "Ethernet4"},
	}
	for sw, ps := range ports {
		for _, p := range ps {
			at := sw + ":" + p
			out = append(out,
				// DSCP_TO_TC_MAP|AZURE: "26": "1" (only DSCP 3 and 4 reach the lossless TCs 3 and 4):
				// SONiC's default AZURE map puts DSCP 26 in lossy class 1.
				departure{key: "fail SW-DSCP-MAP " + at, says: "DSCP 26 lands in class 1, a lossy class (no PFC)"},
				// PORT_QOS_MAP pfc_enable "{{ LOSSLESS_TC|join(',') }}" = "3,4".
				departure{key: "fail SW-PFC " + at, says: "PFC is not on the RoCE priority alone"},
				// QUEUE|<port>|6 -> scheduler.0 {"type": "DWRR", "weight": "14"}: CNP queue 6 is
				// DWRR (weight 14), not strict.
				departure{key: "fail SW-CNP-QUEUE " + at, says: "queue 6, which is scheduled dwrr, not strict",
					inEvidence: `queues 0-2,5-6 -> SCHEDULER|scheduler.0 type="DWRR" weight="14"`},
			)
			if sw == "leaf2" {
				// The dynamic-model CONFIG_DB (sonic-utilities db_migrator
				// reclaiming-buffer-dynamic-double-pools-expected.json) has
				// default_pfcwd_status "disable": `config pfcwd start_default` writes no PFC_WD.
				out = append(out, departure{key: "fail SW-PFC-WATCHDOG " + at, says: "no PFC watchdog on the RoCE priority"})
			}
		}
	}
	// PFC 3,4 on the switch end of every host link, 3 on the host: the ends disagree. gpu01's
	// port 0 is the declared link, so its finding is keyed on the host end.
	for _, at := range []string{"gpu01:ens1f0np0", "leaf1:Ethernet4", "leaf1:Ethernet8", "leaf1:Ethernet12",
		"leaf2:Ethernet0", "leaf2:Ethernet4", "leaf2:Ethernet8", "leaf2:Ethernet12"} {
		out = append(out, departure{key: "fail LINK-PFC " + at, says: "the two ends of the link do not agree on PFC"})
	}
	// RoCE in lossy class 1 drops under load: the transfers retransmit and slow down.
	for _, x := range []struct{ at, path string }{
		{"gpu01:ens1f0np0", "gpu01:ens1f0np0->gpu03:ens1f0np0"},
		{"gpu02:ens1f1np1", "gpu02:ens1f1np1->gpu04:ens1f0np0"},
	} {
		out = append(out, departure{key: "fail XFER-BW " + x.at + " " + x.path, says: "bandwidth far below the slowest link"})
	}
	out = append(out,
		departure{key: "fail XFER-RETRANS gpu03:ens1f0np0 gpu01:ens1f0np0->gpu03:ens1f0np0", says: "rdma_out_of_sequence"},
		departure{key: "fail XFER-RETRANS gpu04:ens1f0np0 gpu02:ens1f1np1->gpu04:ens1f0np0", says: "rdma_out_of_sequence"})
	return out
}

// nvidiaCumulusDepartures: `nv set qos roce` meets the recipe except the PFC watchdog, a
// per-port knob whose default is disable (NVUE command reference: "nv set interface
// <interface-id> qos pfc-watchdog state ... The default setting is disable"). PFC watchdog
// off: the NVIDIA RoCE profile leaves it at its default.
func nvidiaCumulusDepartures() []departure {
	var out []departure
	for sw, n := range map[string]int{"leaf1": 5, "leaf2": 5, "spine1": 2} {
		for i := 1; i <= n; i++ {
			out = append(out, departure{key: fmt.Sprintf("fail SW-PFC-WATCHDOG %s:swp%d", sw, i),
				says: "no PFC watchdog on the RoCE priority"})
		}
	}
	return out
}

func TestVendorDesignsEndToEnd(t *testing.T) {
	cases := []struct {
		scenario string
		want     []departure
	}{
		{lab.ScenarioNVIDIACumulus, nvidiaCumulusDepartures()},
		{lab.ScenarioSONiCDefault, sonicDefaultDepartures()},
		// Arista's RoCE profile (qos map dscp 26 / 48, PFC priority 3 no-drop with the pause
		// watchdog, ECN and strict queues, trust dscp, mtu 9214) meets the recipe.
		{lab.ScenarioAristaEOS, nil},
		// Cisco's AI/ML template (DSCP 24-31 -> qos-group 3, CNP 48 -> qos-group 7 in priority
		// level 1, watch-dog-interval on, pause pfc-cos 3) meets the recipe: CNPs need not be
		// class 6.
		{lab.ScenarioCiscoAIML, nil},
	}
	for _, c := range cases {
		t.Run(c.scenario, func(t *testing.T) {
			code, out, errs := run(t, "demo", "--scenario", c.scenario, "--format", "json")
			wantCode := exitOK
			if len(c.want) > 0 {
				wantCode = exitFailed
			}
			if code != wantCode {
				t.Fatalf("exit %d, want %d; stderr %s", code, wantCode, errs)
			}
			rep := decodeReport(t, out)
			var want []string
			byKey := map[string]departure{}
			for _, d := range c.want {
				want = append(want, d.key)
				byKey[d.key] = d
			}
			got := keys(rep, checks.Fail, checks.Error, checks.Warn)
			sort.Strings(want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("findings differ (-want +got):\n%s", diff)
			}
			for _, r := range rep.Results {
				d, ok := byKey[resultKey(r)]
				if !ok {
					continue
				}
				if !strings.Contains(r.Message, d.says) {
					t.Errorf("%s: message %q does not say %q", d.key, r.Message, d.says)
				}
				if d.inEvidence != "" && (r.Evidence == nil || !strings.Contains(r.Evidence.Excerpt, d.inEvidence)) {
					t.Errorf("%s: evidence %+v lacks %q", d.key, r.Evidence, d.inEvidence)
				}
			}
		})
	}
}

// resultKey is one result's key as keys() spells it.
func resultKey(r checks.Result) string {
	return keys(reports.Report{Results: []checks.Result{r}}, r.Status)[0]
}
