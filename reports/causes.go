package reports

import (
	"fmt"

	"github.com/roceaudit/roceaudit/checks"
)

// reportCauses groups the report's results by what explains them, from the results and the
// paths alone, so every format shows the same causes and none can disagree with the results.
func reportCauses(r *Report) []checks.Cause {
	var pp []checks.PathPorts
	for _, p := range r.Paths {
		ports := checks.PathPorts{Path: p.From + "->" + p.To}
		for _, hops := range p.Paths {
			for _, h := range hops {
				for _, port := range []string{h.InPort, h.OutPort} {
					if port != "" {
						ports.Ports = append(ports.Ports, [2]string{h.Device, port})
					}
				}
			}
		}
		pp = append(pp, ports)
	}
	cs := checks.FindCauses(r.Results, pp)
	if cs == nil {
		cs = []checks.Cause{}
	}
	return cs
}

// causesHeading is "3 causes explain 41 problems" (failures, errors and warnings).
func causesHeading(cs []checks.Cause) string {
	n := checks.ExplainedCount(cs)
	return fmt.Sprintf("%s explain %s", plural(len(cs), "cause", "causes"), plural(n, "problem", "problems"))
}
