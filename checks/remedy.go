package checks

import (
	"strings"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/remedy"
	"github.com/roceaudit/roceaudit/topology"
)

// wantsFix says whether a verdict gets a remediation from the platform: every failure, and
// the other verdicts whose evaluator asks for one (platformFix).
func (v verdict) wantsFix() bool { return v.status == Fail || v.platformFix }

// input is the remediation request for c on one end, with that end's facts.
func (e end) input(c *Check, r recipe.Recipe) remedy.Input {
	port := e.ref.Interface
	switch {
	case e.host != nil:
		port = e.host.Netdev
	case e.sw != nil:
		port = e.sw.Name
	}
	return remedy.Input{CheckID: c.ID, Port: port, Host: e.host, Switch: e.sw, Recipe: r}
}

// fixAt is the platform's fix for in on the end's device, or "".
func (o Options) fixAt(e end, in remedy.Input) string {
	if o.Remedy == nil || e.dev == nil {
		return ""
	}
	return o.Remedy(e.dev.Platform, in)
}

// portFix completes a port result: the platform's fix for the port, else what the evaluator
// said, else (for a failure) the check's hint.
func (o Options) portFix(c *Check, v verdict, e end, r recipe.Recipe) verdict {
	if !v.wantsFix() {
		return v
	}
	if fix := o.fixAt(e, e.input(c, r)); fix != "" {
		v.remediation = fix
	}
	return withHint(c, v)
}

// hopFix completes a path or transfer result located on one hop: what the evaluator said,
// then the platform's fix for that hop.
func (o Options) hopFix(c *Check, v verdict, e end, in remedy.Input) verdict {
	if !v.wantsFix() {
		return v
	}
	v.remediation = joinFixes("\n", v.remediation, o.fixAt(e, in))
	return withHint(c, v)
}

// linkFix completes a link result: what the evaluator said, then each end's fix in its own
// device's language, headed by the port it is for.
func (o Options) linkFix(c *Check, v verdict, r recipe.Recipe, ends ...end) verdict {
	if !v.wantsFix() {
		return v
	}
	parts := []string{v.remediation}
	for i, e := range ends {
		in := e.input(c, r)
		if len(ends) == 2 {
			in.PeerHost, in.PeerSwitch = ends[1-i].host, ends[1-i].sw
		}
		if fix := o.fixAt(e, in); fix != "" {
			parts = append(parts, "on "+e.ref.Device+" "+in.Port+":\n"+fix)
		}
	}
	v.remediation = joinFixes("\n", parts...)
	return withHint(c, v)
}

// withHint gives a failure that has no remediation the check's platform-neutral hint.
func withHint(c *Check, v verdict) verdict {
	if v.status == Fail && v.remediation == "" {
		v.remediation = c.Hint
	}
	return v
}

func joinFixes(sep string, parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}

// located is the end a result sits on: where the verdict says, else device and iface.
func (f *fabric) located(v verdict, device, iface string) end {
	if v.device != "" {
		device, iface = v.device, v.iface
	}
	return f.end(topology.PortRef{Device: device, Interface: iface})
}
