package eos

import "strings"

// IsFrontPanel reports whether name (long form) is a physical Ethernet port (Ethernet1,
// Ethernet3/1/1), not a subinterface: ^Ethernet[0-9]+(/[0-9]+)*$, matched by hand (it runs
// for every interface of `show interfaces`, a tenth of ParseInterfaces as a regular expression).
func IsFrontPanel(name string) bool {
	rest, ok := strings.CutPrefix(name, "Ethernet")
	if !ok {
		return false
	}
	for {
		i := 0
		for i < len(rest) && '0' <= rest[i] && rest[i] <= '9' {
			i++
		}
		if i == 0 {
			return false
		}
		if rest = rest[i:]; rest == "" {
			return true
		}
		if rest[0] != '/' {
			return false
		}
		rest = rest[1:]
	}
}

// LongName expands the short interface names EOS prints in tables ("Et1/1" -> "Ethernet1/1").
func LongName(name string) string {
	for _, n := range [...]struct{ short, long string }{{"Et", "Ethernet"}, {"Ma", "Management"}, {"Po", "Port-Channel"}} {
		short, long := n.short, n.long
		if strings.HasPrefix(name, short) && len(name) > len(short) && name[len(short)] >= '0' && name[len(short)] <= '9' {
			return long + name[len(short):]
		}
	}
	return name
}
