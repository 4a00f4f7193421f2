package inventory

import (
	"regexp"
	"strings"
)

// Ansible's split_host_pattern: a --limit value with a comma is a comma-separated list; one
// without is a single pattern when it reads as an address (IPv4, IPv6 or a host name, with
// [x:y] ranges and an optional :port), and otherwise a list separated by colons, a
// bracketed expression staying whole (`fabric:!spine`, `gpu:&gpu01`, `~leaf0[12]`).
// The expressions are those of ansible/lib/ansible/parsing/utils/addresses.py.
var (
	limitNumRange   = `\[[0-9]+:[0-9]+(?::[0-9]+)?\]`
	limitAlnumRange = `\[(?:[a-z]:[a-z]|[0-9]+:[0-9]+)(?::[0-9]+)?\]`
	limitV6Part     = `(?:[0-9a-f]{1,4}|` + limitNumRange + `)`
	limitV4Part     = `(?:[01]?[0-9]{1,2}|2[0-4][0-9]|25[0-5]|` + limitNumRange + `)`
	// A label starts with a word character or a range and does not end with - or _.
	limitLabel = `(?:\w|` + limitAlnumRange + `)(?:(?:[\w-]|` + limitAlnumRange + `)*(?:[^\W_]|` + limitAlnumRange + `))?`

	limitBracketPort = regexp.MustCompile(`^\[(.+)\]:([0-9]+)$`)
	limitHostPort    = regexp.MustCompile(`^((?:[^:\[\]]|\[[^\]]*\])*):([0-9]+)$`)
	limitAddress     = regexp.MustCompile(`(?i)^(?:` +
		`(?:` + limitV4Part + `\.){3}` + limitV4Part + `|` +
		limitIPv6(limitV6Part) + `|` +
		limitLabel + `(?:\.` + limitLabel + `)*)$`)
	limitColonList = regexp.MustCompile(`(?:[^\s:\[\]]|\[[^\]]*\])+`)
)

// limitIPv6 spells out the ways an IPv6 address is written, from :: to 1:2:3:4:5:6:7:8.
func limitIPv6(c string) string {
	return strings.NewReplacer("C", c).Replace(`(?:C:){7}C|(?:C:){1,6}:|(?:C:)(?::C){1,6}|(?:C:){2}(?::C){1,5}|` +
		`(?:C:){3}(?::C){1,4}|(?:C:){4}(?::C){1,3}|(?:C:){5}(?::C){1,2}|(?:C:){6}(?::C)|:(?::C){1,6}|C?::|` +
		`(?:0:){6}(?:C\.){3}C|::(?:ffff:)?(?:C\.){3}C|(?:0:){5}ffff:(?:C\.){3}C`)
}

// splitHostPattern splits one --limit value into patterns, as Ansible does.
func splitHostPattern(pattern string) []string {
	var parts []string
	switch {
	case strings.Contains(pattern, ","):
		parts = strings.Split(pattern, ",")
	case isAnsibleAddress(pattern):
		parts = []string{pattern}
	default:
		parts = limitColonList.FindAllString(pattern, -1)
	}
	var out []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// isAnsibleAddress is parse_address(pattern, allow_ranges=True) succeeding.
func isAnsibleAddress(s string) bool {
	// Ansible takes a bracketed :port off, then a plain one off what is left.
	for _, port := range []*regexp.Regexp{limitBracketPort, limitHostPort} {
		if m := port.FindStringSubmatch(s); m != nil {
			s = m[1]
		}
	}
	return limitAddress.MatchString(s)
}
