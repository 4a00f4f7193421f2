// Package nosfmt holds spellings and layouts that more than one of the lab's switch emulators
// prints the same way: the dotted MAC of EOS and NX-OS, the priority lists and the
// Python-tabulate tables of sonic-utilities and NVUE.
package nosfmt

import (
	"fmt"
	"net"
	"strconv"
	"strings"
)

// DottedMAC is the Cisco-style spelling of a MAC that EOS and NX-OS print ("0c42.a1b2.c3d0");
// anything that is not a 6-byte MAC is shown as given.
func DottedMAC(s string) string {
	m, err := net.ParseMAC(s)
	if err != nil || len(m) != 6 {
		return s
	}
	return fmt.Sprintf("%02x%02x.%02x%02x.%02x%02x", m[0], m[1], m[2], m[3], m[4], m[5])
}

// List is the members of a per-priority set as SONiC and NVUE write them, comma-separated
// ("3,4"), or none for an empty set (SONiC writes "", NVUE "-").
func List(set [8]bool, none string) string {
	var out []string
	for i, on := range set {
		if on {
			out = append(out, strconv.Itoa(i))
		}
	}
	if len(out) == 0 {
		return none
	}
	return strings.Join(out, ",")
}
