package nxos

import "strings"

// IsFrontPanel reports whether name (long form) is a physical Ethernet port: Ethernet1/1, or
// Ethernet1/1/2 for breakouts (^Ethernet[0-9]+/[0-9]+(/[0-9]+)?$, matched by hand: it runs
// for every row and neighbour, and the regular expression was a tenth of ParseInterface).
func IsFrontPanel(name string) bool {
	rest, ok := strings.CutPrefix(name, "Ethernet")
	if !ok {
		return false
	}
	for n := 0; ; n++ { // n: the number of /-separated numbers read
		i := 0
		for i < len(rest) && '0' <= rest[i] && rest[i] <= '9' {
			i++
		}
		if i == 0 {
			return false
		}
		if rest = rest[i:]; rest == "" {
			return n == 1 || n == 2
		}
		if rest[0] != '/' || n == 2 {
			return false
		}
		rest = rest[1:]
	}
}

// LongName expands the short names of LLDP and tables ("Eth1/9" -> "Ethernet1/9").
func LongName(name string) string {
	if strings.HasPrefix(name, "Eth") && !strings.HasPrefix(name, "Ethernet") {
		return "Ethernet" + name[len("Eth"):]
	}
	return name
}
