package labcheck

import (
	"regexp"
	"strconv"

	"github.com/roceaudit/roceaudit/recipe"
)

// placeholder matches what a remediation must never print, since it is written for a real
// (or example) port, its facts and the effective recipe: template slots ({if}, <pci>,
// <priority>), conditionals ({if}), and the upper-case tokens of a template (HOST_MTU, PORT).
var placeholder = regexp.MustCompile(`<[A-Za-z][^<>\n]*>|\{[a-z_]+\}|\b(HOST_MTU|ROCE_DSCP|ROCE_PRIORITY|CNP_DSCP|CNP_PRIORITY|PORT|POLICY|INV|IFACE|DEVICE)\b|DSCP:PRIO`)

// Unrendered lists what fix leaves unrendered: any placeholder, and any default recipe value
// (switch MTU 9216, host MTU 9000, RoCE DSCP 26) where r says otherwise.
func Unrendered(fix string, r recipe.Recipe) []string {
	out := placeholder.FindAllString(fix, -1)
	def := recipe.Default()
	stale := func(differs bool, value int, context string) {
		if differs && regexp.MustCompile(context+`\b`+strconv.Itoa(value)+`\b`).MatchString(fix) {
			out = append(out, "default "+strconv.Itoa(value))
		}
	}
	stale(r.SwitchMTU != def.SwitchMTU, def.SwitchMTU, "")
	stale(r.HostMTU != def.HostMTU, def.HostMTU, `mtu `)
	stale(r.RoCEDSCP != def.RoCEDSCP, def.RoCEDSCP, `(?i)(dscp[ -]|set,|HSET '[^']*' |dscp-prio )`)
	return out
}
