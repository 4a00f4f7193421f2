package checks

import (
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/remedy"
	"github.com/roceaudit/roceaudit/topology"
)

func src(cmd string) topology.Evidence { return topology.Evidence{Command: cmd} }

// healthyPort is a port that follows the default recipe in every respect.
func healthyPort() *topology.HostPort {
	prio := map[int]int{}
	for d := 0; d < 64; d++ {
		prio[d] = d >> 3
	}
	on3 := map[int]bool{3: true}
	return &topology.HostPort{
		Netdev: "ens1f0np0", RDMADevice: "mlx5_0", RDMAPort: 1,
		Link: topology.Known(topology.Netdev{Name: "ens1f0np0", MTU: 9000, OperState: "UP",
			Addresses: []string{"10.1.0.1", "fe80::1"}}, src("ip -d -j addr show")),
		State: topology.Known(topology.RDMAPort{State: "PORT_ACTIVE", LinkLayer: "Ethernet", MaxMTU: 4096, ActiveMTU: 4096}, src("ibv_devinfo -v")),
		GIDs: topology.Known([]topology.GID{
			{Index: 0, IP: "fe80::1", Type: topology.GIDTypeV1, Netdev: "ens1f0np0"},
			{Index: 1, IP: "fe80::1", Type: topology.GIDTypeV2, Netdev: "ens1f0np0"},
			{Index: 2, IP: "10.1.0.1", Type: topology.GIDTypeV1, Netdev: "ens1f0np0"},
			{Index: 3, IP: "10.1.0.1", Type: topology.GIDTypeV2, Netdev: "ens1f0np0"},
		}, src("grep gids")),
		QoS:                  topology.Known(topology.HostQoS{Tool: "mlnx_qos", Trust: "dscp", DSCPToPrio: prio, PFC: [8]bool{3: true}, DCBXMode: "os"}, src("mlnx_qos -i ens1f0np0")),
		Pause:                topology.Known(topology.Pause{}, src("ethtool -a ens1f0np0")),
		DCQCN:                topology.Known(topology.DCQCN{NP: on3, RP: on3}, src("grep ecn")),
		CNP:                  topology.Known(topology.CNP{DSCP: 48, Priority: 6, HasPrio: true}, src("grep ecn")),
		ToS:                  topology.Known(topology.ToS{Value: 106, Set: true, From: "traffic_class"}, src("cat traffic_class")),
		DCBX:                 topology.Known(topology.DCBX{Mode: "static", Detail: "OS controlled, lldpad inactive"}, src("mlnx_qos")),
		ConfiguredGIDIndexes: []topology.ConfiguredGIDIndex{{Index: 3, Source: "inventory"}},
		PFCPreventionMs:      topology.Known(100, src("ethtool --get-tunable ens1f0np0 pfc-prevention-tout")),
		Counters: topology.Known(map[string]int64{"tx_pause_storm_warning_events": 0, "tx_pause_storm_error_events": 0},
			src("ethtool -S ens1f0np0")),
	}
}

// platformFix stands for a platform registry's remediation; it says which facts it was given.
func platformFix(platform string, in remedy.Input) string {
	facts := ""
	switch {
	case in.Host != nil:
		facts = " (host facts of " + in.Host.Netdev + ")"
	case in.Switch != nil:
		facts = " (switch facts of " + in.Switch.Name + ")"
	}
	return platform + " fix for " + in.CheckID + " on " + in.Port + facts
}

func runPort(t *testing.T, p *topology.HostPort) map[string]Result {
	t.Helper()
	snap := &topology.Snapshot{Recipe: recipe.Default(), Devices: []*topology.Device{{
		Name: "gpu01", Platform: "linux", Role: topology.RoleHost, Reachable: true,
		Host: healthyHost(p),
	}}}
	out := map[string]Result{}
	for _, r := range Run(snap, Options{Remedy: platformFix}) {
		if _, dup := out[r.Check]; dup {
			t.Fatalf("two results for %s", r.Check)
		}
		out[r.Check] = r
	}
	return out
}

func TestHealthyPortPassesEveryHostCheck(t *testing.T) {
	res := runPort(t, healthyPort())
	for _, c := range Catalog() {
		if c.Scope != ScopeHostPort && c.Scope != ScopeDevice {
			continue
		}
		r, ok := res[c.ID]
		if !ok {
			t.Errorf("%s: no result", c.ID)
			continue
		}
		if r.Status != Pass {
			t.Errorf("%s: %s (%s: %s)", c.ID, r.Status, r.Actual, r.Message)
		}
	}
	if !strings.Contains(res["HOST-GID-V2"].Actual, "GID index 3") {
		t.Errorf("HOST-GID-V2 should name index 3, got %q", res["HOST-GID-V2"].Actual)
	}
}

// Unreadable addresses (an iproute2 without -j, a shell rc that prints first) leave a
// configured GID index unjudged, not wrong: both GID checks say so, and neither fails.
func TestGIDChecksNeedTheAddresses(t *testing.T) {
	p := healthyPort()
	p.Link = topology.Unknown[topology.Netdev](topology.Evidence{Command: "ip -d -j addr show", Error: "exit status 255"})
	res := runPort(t, p)
	for _, id := range []string{"HOST-GID-V2", "HOST-GID-INDEX"} {
		r := res[id]
		if r.Status != Error || !strings.Contains(r.Message, "netdev addresses could not be read: exit status 255") {
			t.Errorf("%s = %s %q: %s; want error naming the addresses", id, r.Status, r.Actual, r.Message)
		}
	}
}

func TestEachFaultFailsItsCheckOnly(t *testing.T) {
	cases := []struct {
		check  string
		status Status
		break_ func(p *topology.HostPort)
		want   string // in actual
		fix    string // in remediation
	}{
		{"HOST-RDMA-PORT", Fail, func(p *topology.HostPort) { p.State.Value.State = "PORT_DOWN" }, "PORT_DOWN", "linux fix for HOST-RDMA-PORT on ens1f0np0 (host facts of ens1f0np0)"},
		{"HOST-GID-V2", Fail, func(p *topology.HostPort) { p.GIDs.Value = p.GIDs.Value[:3]; p.ConfiguredGIDIndexes = nil }, "no RoCE v2 GID for 10.1.0.1", "linux fix for HOST-GID-V2 on ens1f0np0 (host facts of ens1f0np0)"},
		{"HOST-GID-INDEX", Fail, func(p *topology.HostPort) { p.ConfiguredGIDIndexes[0].Index = 2 }, "RoCE v1", "linux fix for HOST-GID-INDEX on ens1f0np0 (host facts of ens1f0np0)"},
		{"HOST-MTU", Fail, func(p *topology.HostPort) { p.Link.Value.MTU = 4200 }, "ens1f0np0 4200", "linux fix for HOST-MTU on ens1f0np0 (host facts of ens1f0np0)"},
		{"HOST-ROCE-MTU", Fail, func(p *topology.HostPort) { p.State.Value.MaxMTU, p.State.Value.ActiveMTU = 2048, 2048 }, "active_mtu 2048", "linux fix for HOST-ROCE-MTU on ens1f0np0 (host facts of ens1f0np0)"},
		{"HOST-TRUST", Fail, func(p *topology.HostPort) { p.QoS.Value.Trust = "pcp" }, "trust pcp", "linux fix for HOST-TRUST on ens1f0np0 (host facts of ens1f0np0)"},
		{"HOST-DSCP-MAP", Fail, func(p *topology.HostPort) { p.QoS.Value.DSCPToPrio[26] = 0 }, "DSCP 26 -> priority 0", "linux fix for HOST-DSCP-MAP on ens1f0np0 (host facts of ens1f0np0)"},
		{"HOST-PFC", Fail, func(p *topology.HostPort) { p.QoS.Value.PFC[4] = true }, "priorities 3,4", "linux fix for HOST-PFC on ens1f0np0 (host facts of ens1f0np0)"},
		{"HOST-PFC", Fail, func(p *topology.HostPort) { p.QoS.Value.Tool, p.QoS.Value.PFC[4] = "dcb", true }, "priorities 3,4", "linux fix for HOST-PFC on ens1f0np0 (host facts of ens1f0np0)"},
		{"HOST-PAUSE", Fail, func(p *topology.HostPort) { p.Pause.Value.RX, p.Pause.Value.TX = true, true }, "RX on, TX on", "linux fix for HOST-PAUSE on ens1f0np0 (host facts of ens1f0np0)"},
		{"HOST-ECN", Fail, func(p *topology.HostPort) { p.DCQCN.Value.NP = map[int]bool{} }, "notification point off", "linux fix for HOST-ECN on ens1f0np0 (host facts of ens1f0np0)"},
		{"HOST-CNP", Fail, func(p *topology.HostPort) { p.CNP.Value.DSCP = 46 }, "CNP DSCP 46", "linux fix for HOST-CNP on ens1f0np0 (host facts of ens1f0np0)"},
		{"HOST-TOS", Fail, func(p *topology.HostPort) { p.ToS.Value.Value = 96 }, "ToS 96 (DSCP 24)", "linux fix for HOST-TOS on ens1f0np0 (host facts of ens1f0np0)"},
		{"HOST-TOS", Fail, func(p *topology.HostPort) { p.ToS.Value = topology.ToS{} }, "no default ToS", "linux fix for HOST-TOS on ens1f0np0 (host facts of ens1f0np0)"},
		{"HOST-TOS", Warn, func(p *topology.HostPort) { p.ToS.Value = topology.ToS{Unreadable: true} }, "not readable", "linux fix for HOST-TOS on ens1f0np0 (host facts of ens1f0np0)"},
		{"HOST-TRUST", Error, func(p *topology.HostPort) { p.QoS.Value.Trust = "" }, "not reported", ""},
		{"HOST-DCBX", Fail, func(p *topology.HostPort) { p.DCBX.Value.Mode = "dcbx" }, "dcbx", "linux fix for HOST-DCBX on ens1f0np0 (host facts of ens1f0np0)"},
	}
	for _, tc := range cases {
		t.Run(tc.check+"/"+tc.want, func(t *testing.T) {
			p := healthyPort()
			tc.break_(p)
			res := runPort(t, p)
			r := res[tc.check]
			if r.Status != tc.status {
				t.Fatalf("%s = %s, want %s (%s)", tc.check, r.Status, tc.status, r.Actual)
			}
			if !strings.Contains(r.Actual, tc.want) {
				t.Errorf("actual %q lacks %q", r.Actual, tc.want)
			}
			if !strings.Contains(r.Remediation, tc.fix) {
				t.Errorf("remediation %q lacks %q", r.Remediation, tc.fix)
			}
			if tc.status == Error {
				if other := res["HOST-DSCP-MAP"]; other.Status != Error {
					t.Errorf("HOST-DSCP-MAP = %s without a trust state", other.Status)
				}
				return
			}
			if r.Expected == "" || r.Evidence == nil {
				t.Errorf("expected/evidence missing: %+v", r)
			}
			for id, other := range res {
				if id != tc.check && other.Status != Pass && other.Status != Skip {
					t.Errorf("fault for %s also made %s %s", tc.check, id, other.Status)
				}
			}
		})
	}
}

func TestMissingFactsAreErrorsNeverPasses(t *testing.T) {
	p := healthyPort()
	gone := topology.Evidence{Command: "mlnx_qos -i ens1f0np0", Error: "exit 1: Operation not supported"}
	p.QoS = topology.Unknown[topology.HostQoS](gone)
	p.Pause = topology.Unknown[topology.Pause](gone)
	p.DCQCN = topology.Unknown[topology.DCQCN](gone)
	p.CNP = topology.Unknown[topology.CNP](gone)
	p.ToS = topology.Unknown[topology.ToS](gone)
	p.DCBX = topology.Unknown[topology.DCBX](gone)
	p.GIDs = topology.Unknown[[]topology.GID](gone)
	p.State = topology.Unknown[topology.RDMAPort](gone)
	p.Link = topology.Unknown[topology.Netdev](gone)
	p.Counters = topology.Unknown[map[string]int64](gone)
	for id, r := range runPort(t, p) {
		if id == "COLLECT-REACH" || id == "COLLECT-FACTS" {
			continue
		}
		if r.Status != Error {
			t.Errorf("%s = %s with its facts missing, want error", id, r.Status)
		}
		if r.Evidence == nil || !strings.Contains(r.Message, "Operation not supported") {
			t.Errorf("%s: evidence/message should carry the cause: %+v", id, r)
		}
	}
}

func TestUnknownBindingIsAnErrorNotANoRDMAFail(t *testing.T) {
	p := healthyPort()
	p.RDMADevice, p.RDMAPort = "", 0
	p.BindingsUnknown = true
	src := topology.Evidence{Command: "rdma link show", Error: "exit 127"}
	p.State = topology.Unknown[topology.RDMAPort](src)
	p.GIDs = topology.Unknown[[]topology.GID](src)
	res := runPort(t, p)
	for _, id := range []string{"HOST-RDMA-PORT", "HOST-ROCE-MTU", "HOST-TOS"} {
		if res[id].Status != Error {
			t.Errorf("%s = %s, want error", id, res[id].Status)
		}
	}
}

func TestUnreachableDeviceIsErrorAndOtherChecksDoNotRun(t *testing.T) {
	snap := &topology.Snapshot{Recipe: recipe.Default(), Devices: []*topology.Device{
		{Name: "gpu09", Role: topology.RoleHost, Address: "127.0.0.1", Error: "host key mismatch: SHA256:abc"},
	}}
	res := Run(snap, Options{})
	if len(res) != 2 || res[0].Check != "COLLECT-REACH" || res[0].Status != Error || !strings.Contains(res[0].Message, "SHA256:abc") ||
		res[1].Check != "COLLECT-FACTS" || res[1].Status != Skip {
		t.Fatalf("got %+v", res)
	}
	// Filters cannot hide it: the audit stays incomplete.
	for _, o := range []Options{{Only: []string{"HOST-PFC"}}, {Skip: []string{"COLLECT-REACH"}}} {
		res := Run(snap, o)
		if len(res) == 0 || res[0].Check != "COLLECT-REACH" || res[0].Status != Error || !Judge(res, SevError).Incomplete {
			t.Errorf("%+v: %+v", o, res)
		}
	}
}

func TestConnectedButNotCollectedIsAnError(t *testing.T) {
	snap := &topology.Snapshot{Recipe: recipe.Default(), Devices: []*topology.Device{
		{Name: "leaf3", Role: topology.RoleSwitch, Reachable: true, Error: "collecting from leaf3: context deadline exceeded (device timeout 5s; raise it with --timeout)"},
	}}
	res := Run(snap, Options{Only: []string{"SW-PFC"}})
	if len(res) != 1 || res[0].Check != "COLLECT-FACTS" || res[0].Status != Error || !strings.Contains(res[0].Message, "--timeout") ||
		!strings.Contains(res[0].Remediation, "raise --timeout") {
		t.Fatalf("got %+v", res)
	}
	// More time cannot help a device that floods: the fix does not offer it.
	snap.Devices[0].Error = "collecting from leaf3: show interfaces: output exceeded 16 MiB without a prompt"
	if res := Run(snap, Options{Only: []string{"SW-PFC"}}); len(res) != 1 || strings.Contains(res[0].Remediation, "--timeout") {
		t.Errorf("a flood's fix offers more time: %+v", res)
	}
	if !Judge(res, SevError).Incomplete {
		t.Error("must be incomplete")
	}
	if !Judge(nil, SevError).Incomplete {
		t.Error("no result at all must be incomplete, not a pass")
	}
}

func TestOnlyAndSkip(t *testing.T) {
	p := healthyPort()
	snap := &topology.Snapshot{Recipe: recipe.Default(), Devices: []*topology.Device{{Name: "h", Reachable: true,
		Host: healthyHost(p)}}}
	if got := Run(snap, Options{Only: []string{"host-pfc"}}); len(got) != 1 || got[0].Check != "HOST-PFC" {
		t.Errorf("--only: %+v", got)
	}
	for _, r := range Run(snap, Options{Skip: []string{"HOST-PFC"}}) {
		if r.Check == "HOST-PFC" {
			t.Error("--skip did not skip")
		}
	}
	if err := ValidateIDs([]string{"HOST-PFC", "NOPE"}); err == nil || !strings.Contains(err.Error(), "NOPE") {
		t.Errorf("ValidateIDs: %v", err)
	}
	if err := ValidateIDs([]string{"HOST-PFC", ""}); err == nil || !strings.Contains(err.Error(), "empty check ID") {
		t.Errorf("ValidateIDs of a stray comma: %v", err)
	}
}

func TestJudge(t *testing.T) {
	warnFail := []Result{{Status: Fail, Severity: Warning}, {Status: Pass, Severity: Critical}}
	if o := Judge(warnFail, SevError); o.Failed {
		t.Error("a warning-severity fail must not fail --fail-on error")
	}
	if o := Judge(warnFail, Warning); !o.Failed {
		t.Error("--fail-on warning must count it")
	}
	if o := Judge([]Result{{Status: Error, Severity: Critical}}, SevError); o.Failed || !o.Incomplete {
		t.Errorf("error status: %+v", o)
	}
	if o := Judge([]Result{{Status: Fail, Severity: Critical}}, Critical); !o.Failed {
		t.Error("critical fail must fail --fail-on critical")
	}
}

// healthyHost holds ports on a host whose applications are told the recipe's ToS.
func healthyHost(ports ...*topology.HostPort) *topology.HostFacts {
	return &topology.HostFacts{Ports: ports, AppSettings: topology.Known([]topology.AppSetting{
		{Key: "NCCL_IB_TC", Value: "106", File: topology.NCCLConf}}, src("grep -H NCCL_IB_"))}
}
