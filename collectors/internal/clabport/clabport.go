// Package clabport turns the ethN names containerlab wires into the names a switch reports
// (containerlab's kind pages), for the kinds whose NOS packages share a convention.
package clabport

import (
	"regexp"
	"strconv"
)

// eth is containerlab's data-port name, eth1 and up (eth0 is management).
var eth = regexp.MustCompile(`^eth([1-9][0-9]*)$`)

// Number is N of a data port ethN.
func Number(iface string) (int, bool) {
	m := eth.FindStringSubmatch(iface)
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	return n, err == nil
}

// Slot1 is the vrnetlab convention (vEOS, Nexus 9000v): eth1 is Ethernet1/1. Any other name
// (an alias such as Ethernet1/5) is already the switch's.
func Slot1(iface string) string {
	if n, ok := Number(iface); ok {
		return "Ethernet1/" + strconv.Itoa(n)
	}
	return iface
}
