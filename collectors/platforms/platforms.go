// Package platforms is the one explicit registry of every platform roceaudit can collect.
// Adding a NOS means one new collector package and one entry here.
package platforms

import (
	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/cumulus"
	"github.com/roceaudit/roceaudit/collectors/eos"
	"github.com/roceaudit/roceaudit/collectors/linux"
	"github.com/roceaudit/roceaudit/collectors/nxos"
	"github.com/roceaudit/roceaudit/collectors/sonic"
	"github.com/roceaudit/roceaudit/recipe"
)

// remediations write a fix in each switch platform's own configuration language.
var remediations = map[string]func(checkID, port string, r recipe.Recipe) string{
	"sonic":   sonic.Remediation,
	"cumulus": cumulus.Remediation,
	"eos":     eos.Remediation,
	"nxos":    nxos.Remediation,
}

// interactive platforms are driven through a CLI prompt (scrapligo) rather than SSH exec.
var interactive = map[string]bool{"eos": true, "nxos": true}

// Registry returns every supported platform.
func Registry() *collectors.Registry {
	return collectors.NewRegistry(
		linux.Platform{},
		sonic.Platform{},
		cumulus.Platform{},
		eos.Platform{},
		nxos.Platform{},
	)
}

// Remedy is the remediation hook for the check engine.
func Remedy(platform, checkID, port string, r recipe.Recipe) string {
	if f, ok := remediations[platform]; ok {
		return f(checkID, port, r)
	}
	return ""
}

// Interactive says whether a platform needs an interactive CLI session.
func Interactive(platform string) bool { return interactive[platform] }
