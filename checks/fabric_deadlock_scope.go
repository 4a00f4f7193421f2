package checks

import (
	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/remedy"
	"github.com/roceaudit/roceaudit/topology"
)

// fabricVerdict is a verdict about the fabric as a whole, located at the port that best
// names it (none for a verdict on the whole fabric); path labels it in reports.
type fabricVerdict struct {
	verdict
	device, iface, peer, path string
}

// portRemedy is a port's remediation for checkID in its platform's own language, "" where
// the platform has none.
type portRemedy func(checkID string, port topology.PortRef) string

// fabricResults runs the fabric-scope checks once over the whole fabric.
func fabricResults(r recipe.Recipe, cat []*Check, f *fabric, opts Options) []Result {
	fix := func(checkID string, ref topology.PortRef) string {
		e := f.end(ref)
		if opts.Remedy == nil || e.dev == nil {
			return ""
		}
		return opts.Remedy(e.dev.Platform, remedy.Input{CheckID: checkID, Port: ref.Interface, Switch: e.sw, Recipe: r})
	}
	var out []Result
	for _, c := range cat {
		if c.fabric == nil || !opts.wants(c.ID) {
			continue
		}
		for _, fv := range c.fabric(r, f, fix) {
			res := c.result(r, fv.verdict, fv.device, fv.iface)
			res.Peer, res.Path = fv.peer, fv.path
			out = append(out, res)
		}
	}
	return out
}
