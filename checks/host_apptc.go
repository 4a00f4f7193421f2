package checks

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// hostAppTC is a check of its own rather than part of HOST-TOS: HOST-TOS judges the RDMA-CM
// default, which NCCL never consults (it sets up its QPs with verbs, the traffic class from
// NCCL_IB_TC), so a host can pass HOST-TOS and still run every training job in a lossy queue.
func hostAppTC() *Check {
	return &Check{
		ID: "HOST-APP-TC", Title: "the traffic class RDMA applications really send (NCCL_IB_TC, UCX_IB_TRAFFIC_CLASS) is in roce_tos",
		Scope: ScopeHostPort, Severity: SevError,
		Rationale: "perftest can be fine while a training job is slow: NCCL builds its queue pairs with verbs " +
			"and marks them with NCCL_IB_TC, default 0, not with the RDMA-CM default ToS, so unless something " +
			"sets it the job's traffic leaves with DSCP 0 and lands in a lossy queue. NCCL reads /etc/nccl.conf " +
			"for any variable the environment does not set; a login shell exports /etc/environment and " +
			"/etc/profile.d. An MLNX_OFED global traffic_class overrides them all on its port.",
		Sources: []string{"NVIDIA NCCL environment variables (NCCL_IB_TC, NCCL_IB_HCA, NCCL_CONF_FILE, /etc/nccl.conf)",
			"OpenUCX UCX_IB_TRAFFIC_CLASS", "NVIDIA MLNX_OFED (tc/PORT/traffic_class)"},
		Expected: func(r recipe.Recipe) string { return "applications send ToS " + tosList(r.RoCEToS) },
		Hint:     "set NCCL_IB_TC (and UCX_IB_TRAFFIC_CLASS where UCX is used) to the recipe's ToS where the host keeps it",
		hostPort: evalAppTC,
	}
}

// appTC is the ToS one application family sends on a port and what decided it.
type appTC struct {
	app, knob string // "NCCL", "NCCL_IB_TC"
	tos       int
	from      string // "NCCL_IB_TC in /etc/nccl.conf", "NCCL's default"
}

func evalAppTC(r recipe.Recipe, d *topology.Device, p *topology.HostPort) verdict {
	if bindingUnknown(p) {
		return unknown("application traffic class", p.State.Source)
	}
	if p.RDMADevice == "" {
		return verdict{status: Skip, actual: "no RDMA device", message: "no RDMA device bound (see HOST-RDMA-PORT)"}
	}
	if d.Host == nil || !d.Host.AppSettings.Usable() {
		var src topology.Evidence
		if d.Host != nil {
			src = d.Host.AppSettings.Source
		}
		return unknown("the application settings (NCCL_IB_*, UCX_IB_TRAFFIC_CLASS)", src)
	}
	settings := d.Host.AppSettings.Value
	if !p.ToS.Usable() {
		// An OFED traffic_class override would decide for every application: not knowing it is
		// not knowing what they send.
		return unknown("the port's traffic class override", p.ToS.Source)
	}
	if t := p.ToS.Value; t.Set && t.From == "traffic_class" {
		// The OFED global traffic class replaces whatever the QP asks for on this port.
		actual := "ToS " + strconv.Itoa(t.Value) + " (DSCP " + strconv.Itoa(t.Value>>2) + ") for every QP, from the MLNX_OFED traffic_class override"
		if slices.Contains(r.RoCEToS, t.Value) {
			return verdict{status: Pass, actual: actual}
		}
		return verdict{status: Skip, actual: actual,
			message: fmt.Sprintf("tc/%d/traffic_class overrides every application's traffic class, with a value the recipe does not use: see HOST-TOS", p.RDMAPort)}
	}

	var tcs []appTC
	if nccl, used := ncclTC(settings, p); used {
		tcs = append(tcs, nccl)
	}
	if s, ok := topology.EffectiveSetting(settings, "UCX_IB_TRAFFIC_CLASS"); ok && s.Value != "auto" {
		t, err := strconv.Atoi(s.Value)
		if err != nil || t < 0 || t > 255 {
			return verdict{status: Error, actual: "UCX_IB_TRAFFIC_CLASS=" + s.Value, evidence: ev(d.Host.AppSettings.Source),
				message: fmt.Sprintf("UCX_IB_TRAFFIC_CLASS=%q in %s is not a traffic class 0..255", s.Value, s.File)}
		}
		tcs = append(tcs, appTC{app: "UCX", knob: "UCX_IB_TRAFFIC_CLASS", tos: t, from: "UCX_IB_TRAFFIC_CLASS in " + s.File})
	}
	if len(tcs) == 0 {
		return verdict{status: Skip, actual: "NCCL_IB_HCA excludes " + p.RDMADevice,
			message: "NCCL does not use this RDMA device and no UCX_IB_TRAFFIC_CLASS is set"}
	}
	var parts, bad []string
	for _, a := range tcs {
		parts = append(parts, fmt.Sprintf("%s: ToS %d (DSCP %d) from %s", a.app, a.tos, a.tos>>2, a.from))
		if !slices.Contains(r.RoCEToS, a.tos) {
			bad = append(bad, a.knob)
		}
	}
	actual := strings.Join(parts, "; ")
	if len(bad) == 0 {
		return verdict{status: Pass, actual: actual}
	}
	return verdict{status: Fail, actual: actual, evidence: ev(d.Host.AppSettings.Source),
		message: fmt.Sprintf("applications mark RoCE with a ToS the recipe does not use, so it lands in a lossy queue: set %s to %d",
			strings.Join(bad, " and "), r.RoCEToS[len(r.RoCEToS)-1])}
}

// ncclTC is the traffic class NCCL sends on p: NCCL_IB_TC as a login shell or nccl.conf gives
// it, else NCCL's default 0. used is false when NCCL_IB_HCA leaves the device out.
func ncclTC(settings []topology.AppSetting, p *topology.HostPort) (appTC, bool) {
	if hca, ok := topology.EffectiveSetting(settings, "NCCL_IB_HCA"); ok && !ncclUsesHCA(hca.Value, p.RDMADevice, p.RDMAPort) {
		return appTC{}, false
	}
	a := appTC{app: "NCCL", knob: "NCCL_IB_TC", from: "NCCL's default (no NCCL_IB_TC in /etc/nccl.conf, /etc/environment or /etc/profile.d)"}
	s, ok := topology.EffectiveSetting(settings, "NCCL_IB_TC")
	if !ok {
		return a, true
	}
	t, err := strconv.Atoi(s.Value)
	if err != nil || t < 0 || t > 255 {
		a.from = fmt.Sprintf("NCCL_IB_TC=%q in %s, which NCCL cannot read as a number (it falls back to 0)", s.Value, s.File)
		return a, true
	}
	a.tos, a.from = t, "NCCL_IB_TC in "+s.File
	return a, true
}

// ncclUsesHCA applies NCCL_IB_HCA's syntax: a comma list of DEV[:PORT] prefixes, "=" for
// exact names, a leading "^" to exclude the list instead.
func ncclUsesHCA(spec, dev string, port int) bool {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return true
	}
	exclude := strings.HasPrefix(spec, "^")
	spec = strings.TrimPrefix(spec, "^")
	exact := strings.HasPrefix(spec, "=")
	spec = strings.TrimPrefix(spec, "=")
	matched := false
	for _, item := range strings.Split(spec, ",") {
		name, portText, hasPort := strings.Cut(strings.TrimSpace(item), ":")
		if name == "" {
			continue
		}
		if hasPort && portText != strconv.Itoa(port) {
			continue
		}
		if dev == name || !exact && strings.HasPrefix(dev, name) {
			matched = true
		}
	}
	return matched != exclude
}
