package main

import (
	"net/url"
	"strings"

	"github.com/spf13/cobra"

	"github.com/roceaudit/roceaudit/inventory"
)

// inventoryFlag adds -i/--inventory, --limit and --defaults to a command that reads an
// inventory, with the help every such command shares. The three flags, in any order, write
// one source to *dst: the -i value with `?limit=...&defaults=...` after it, the form a
// source string may carry itself, so that loadInventory has one thing to open.
func inventoryFlag(cmd *cobra.Command, dst *string) {
	s := &inventorySource{dst: dst}
	f := cmd.Flags()
	f.VarP(sourceFlag{s, func(v string) { s.spec = v }}, "inventory", "i",
		"inventory: a roceaudit YAML file, clab:FILE (containerlab topology), ansible:FILE (Ansible YAML, INI or ansible-inventory --list JSON) or netbox:https://HOST (token in $NETBOX_TOKEN; ?site=,role=,tag= filter)")
	f.Var(sourceFlag{s, func(v string) { s.limit = append(s.limit, v) }}, "limit",
		"audit only these devices or groups (Ansible patterns: leaves,gpu*,!leaf2,&rack1, fabric:!spine, ~regex; repeatable)")
	f.Var(sourceFlag{s, func(v string) { s.defaults = v }}, "defaults",
		"for an imported inventory: a YAML file with the connection defaults:, recipe: and per-device settings (devices:) the source does not have")
}

type inventorySource struct {
	dst            *string
	spec, defaults string
	limit          []string
}

// compose writes the source with its options; without -i it stays empty ("no inventory").
func (s *inventorySource) compose() {
	if s.spec == "" {
		*s.dst = ""
		return
	}
	q := url.Values{}
	if len(s.limit) > 0 {
		q.Set("limit", strings.Join(s.limit, ","))
	}
	if s.defaults != "" {
		q.Set("defaults", s.defaults)
	}
	if len(q) == 0 {
		*s.dst = s.spec
		return
	}
	sep := "?"
	if i := strings.LastIndexByte(s.spec, '?'); i >= 0 {
		if _, err := inventory.ParseOptions(s.spec[i+1:]); err == nil {
			sep = "&" // the source carries options already
		}
	}
	*s.dst = s.spec + sep + q.Encode()
}

// sourceFlag is one of the three flags: set records its value and recomposes the source.
type sourceFlag struct {
	s   *inventorySource
	set func(string)
}

func (f sourceFlag) String() string { return "" }
func (f sourceFlag) Type() string   { return "string" }
func (f sourceFlag) Set(v string) error {
	f.set(v)
	f.s.compose()
	return nil
}
