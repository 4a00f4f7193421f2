package eos

import "github.com/roceaudit/roceaudit/topology"

// MaxIPMTU is the largest IP MTU EOS accepts.
const MaxIPMTU = 9214

// JumboClass is the frame-MTU class EOS's maximum belongs to (the recipe's switch_mtu).
const JumboClass = 9216

// NormalizeMTU turns an EOS IP MTU into the frame-MTU class used to compare vendors (see the
// package comment): 9214 and above -> 9216, anything else unchanged.
func NormalizeMTU(ipMTU int) topology.MTU {
	n := ipMTU
	if ipMTU >= MaxIPMTU {
		n = JumboClass
	}
	return topology.MTU{Configured: ipMTU, Kind: "ip", Normalized: n}
}

// IPMTUFor is the EOS `mtu` value that realizes a recipe frame MTU (inverse of NormalizeMTU).
func IPMTUFor(switchMTU int) int {
	if switchMTU >= JumboClass {
		return MaxIPMTU
	}
	return switchMTU
}
