package cumulus

import (
	"fmt"

	"github.com/roceaudit/roceaudit/collectors/internal/texttable"
)

// ParseSystem reads the release from `nv show system`: the `build` row ("Cumulus Linux
// 5.5.0") of CL 5.2-5.10, or `product-name` and `product-release` of later releases, which
// print the rows without a header.
func ParseSystem(out string) (string, error) {
	fields := map[string]string{}
	for _, l := range texttable.SplitLines(out) {
		if len(l) == 0 || l[0] == ' ' {
			continue
		}
		toks := texttable.Tokens(l)
		if len(toks) < 2 {
			continue
		}
		k := toks[0].Text(l)
		if _, seen := fields[k]; !seen {
			fields[k] = toks[1].Text(l)
		}
	}
	if b := fields["build"]; b != "" {
		return b, nil
	}
	if p := fields["product-name"]; p != "" {
		if r := fields["product-release"]; r != "" {
			return p + " " + r, nil
		}
		return p, nil
	}
	return "", fmt.Errorf("%s: no build or product-name row in the output", CmdSystem)
}
