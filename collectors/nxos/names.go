package nxos

import (
	"regexp"
	"strings"
)

// frontPanel matches physical ports (Ethernet1/1, Ethernet1/1/2 for breakouts).
var frontPanel = regexp.MustCompile(`^Ethernet[0-9]+/[0-9]+(/[0-9]+)?$`)

// IsFrontPanel reports whether name (long form) is a physical Ethernet port.
func IsFrontPanel(name string) bool { return frontPanel.MatchString(name) }

// LongName expands the short names of LLDP and tables ("Eth1/9" -> "Ethernet1/9").
func LongName(name string) string {
	if strings.HasPrefix(name, "Eth") && !strings.HasPrefix(name, "Ethernet") {
		return "Ethernet" + name[len("Eth"):]
	}
	return name
}
