package eos

import (
	"regexp"
	"strings"
)

// frontPanel matches physical Ethernet ports (Ethernet1, Ethernet3/1/1), not subinterfaces.
var frontPanel = regexp.MustCompile(`^Ethernet[0-9]+(/[0-9]+)*$`)

// IsFrontPanel reports whether name (long form) is a physical Ethernet port.
func IsFrontPanel(name string) bool { return frontPanel.MatchString(name) }

// LongName expands the short interface names EOS prints in tables ("Et1/1" -> "Ethernet1/1").
func LongName(name string) string {
	for short, long := range map[string]string{"Et": "Ethernet", "Ma": "Management", "Po": "Port-Channel"} {
		if strings.HasPrefix(name, short) && len(name) > len(short) && name[len(short)] >= '0' && name[len(short)] <= '9' {
			return long + name[len(short):]
		}
	}
	return name
}
