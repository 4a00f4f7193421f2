// Package nosfmt holds spellings and layouts that more than one of the lab's switch emulators
// prints the same way: the dotted MAC of EOS and NX-OS, and the Python-tabulate tables of
// sonic-utilities and NVUE.
package nosfmt

import (
	"fmt"
	"net"
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
