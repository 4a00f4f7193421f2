// Package recipe holds the lossless RoCEv2 recipe: the values every hop is checked against.
package recipe

import (
	"fmt"
	"slices"
)

// Recipe is the lossless recipe every hop is checked against. Every field has a default and
// can be overridden by the inventory.
type Recipe struct {
	RoCEPriority      int     `yaml:"roce_priority" json:"roce_priority"`
	RoCEDSCP          int     `yaml:"roce_dscp" json:"roce_dscp"`
	RoCEToS           []int   `yaml:"roce_tos" json:"roce_tos"`
	CNPDSCP           int     `yaml:"cnp_dscp" json:"cnp_dscp"`
	CNPPriority       int     `yaml:"cnp_priority" json:"cnp_priority"`
	HostMTU           int     `yaml:"host_mtu" json:"host_mtu"`
	SwitchMTU         int     `yaml:"switch_mtu" json:"switch_mtu"`
	RoCEMTU           int     `yaml:"roce_mtu" json:"roce_mtu"`
	DCBX              string  `yaml:"dcbx" json:"dcbx"`
	PFCWatchdog       bool    `yaml:"pfc_watchdog" json:"pfc_watchdog"`
	MinBandwidthRatio float64 `yaml:"min_bandwidth_ratio" json:"min_bandwidth_ratio"`
}

// DCBX modes a recipe may ask for.
const (
	DCBXStatic  = "static"
	DCBXDynamic = "dcbx"
)

// Default returns the recipe as shipped: RoCE on priority 3 / DSCP 26, jumbo MTUs, static DCB.
func Default() Recipe {
	return Recipe{
		RoCEPriority:      3,
		RoCEDSCP:          26,
		RoCEToS:           []int{104, 106},
		CNPDSCP:           48,
		CNPPriority:       6,
		HostMTU:           9000,
		SwitchMTU:         9216,
		RoCEMTU:           4096,
		DCBX:              DCBXStatic,
		PFCWatchdog:       true,
		MinBandwidthRatio: 0.9,
	}
}

// ValidRoCEMTUs are the IB MTUs an RDMA port can run.
var ValidRoCEMTUs = []int{256, 512, 1024, 2048, 4096}

// Validate reports the first value that cannot be right, naming its key.
func (r Recipe) Validate() error {
	prio := func(key string, v int) error {
		if v < 0 || v > 7 {
			return fmt.Errorf("recipe.%s: %d is not a priority (expected 0..7)", key, v)
		}
		return nil
	}
	dscp := func(key string, v int) error {
		if v < 0 || v > 63 {
			return fmt.Errorf("recipe.%s: %d is not a DSCP value (expected 0..63)", key, v)
		}
		return nil
	}
	for _, err := range []error{
		prio("roce_priority", r.RoCEPriority), prio("cnp_priority", r.CNPPriority),
		dscp("roce_dscp", r.RoCEDSCP), dscp("cnp_dscp", r.CNPDSCP),
	} {
		if err != nil {
			return err
		}
	}
	if r.RoCEPriority == r.CNPPriority {
		return fmt.Errorf("recipe.cnp_priority: %d is the RoCE priority too (CNPs need their own strict queue)", r.CNPPriority)
	}
	if r.RoCEDSCP == r.CNPDSCP {
		return fmt.Errorf("recipe.cnp_dscp: %d is the RoCE DSCP too (switches classify CNPs to their own strict queue by DSCP)", r.CNPDSCP)
	}
	if len(r.RoCEToS) == 0 {
		return fmt.Errorf("recipe.roce_tos: empty (expected at least one ToS byte, e.g. [104, 106])")
	}
	for _, t := range r.RoCEToS {
		if t < 0 || t > 255 {
			return fmt.Errorf("recipe.roce_tos: %d is not a ToS byte (expected 0..255)", t)
		}
		if t>>2 != r.RoCEDSCP {
			return fmt.Errorf("recipe.roce_tos: ToS %d carries DSCP %d, not roce_dscp %d", t, t>>2, r.RoCEDSCP)
		}
	}
	if r.HostMTU < 1280 || r.HostMTU > 9216 {
		return fmt.Errorf("recipe.host_mtu: %d out of range (expected 1280..9216)", r.HostMTU)
	}
	if r.SwitchMTU < 1280 || r.SwitchMTU > 9216 {
		return fmt.Errorf("recipe.switch_mtu: %d out of range (expected 1280..9216)", r.SwitchMTU)
	}
	if !slices.Contains(ValidRoCEMTUs, r.RoCEMTU) {
		return fmt.Errorf("recipe.roce_mtu: %d is not an RDMA MTU (expected one of %v)", r.RoCEMTU, ValidRoCEMTUs)
	}
	if r.RoCEMTU+RoCEOverhead > r.HostMTU {
		return fmt.Errorf("recipe.roce_mtu: %d plus %d bytes of RoCE headers does not fit host_mtu %d", r.RoCEMTU, RoCEOverhead, r.HostMTU)
	}
	if r.DCBX != DCBXStatic && r.DCBX != DCBXDynamic {
		return fmt.Errorf("recipe.dcbx: %q (expected %q or %q)", r.DCBX, DCBXStatic, DCBXDynamic)
	}
	if r.MinBandwidthRatio <= 0 || r.MinBandwidthRatio > 1 {
		return fmt.Errorf("recipe.min_bandwidth_ratio: %g (expected a share in (0, 1])", r.MinBandwidthRatio)
	}
	return nil
}

// RoCEOverhead is the kernel's RoCE header allowance (iboe_get_mtu: GRH 40 + UDP 8 + BTH 12 +
// XRC 4 + AtomicETH 28 + ICRC 4): active_mtu is the largest IB MTU <= netdev MTU - 96.
const RoCEOverhead = 96

// ActiveMTUFor is the RDMA active_mtu a port gets on a netdev of the given MTU.
func ActiveMTUFor(netdevMTU int) int {
	best := 0
	for _, m := range ValidRoCEMTUs {
		if m <= netdevMTU-RoCEOverhead {
			best = m
		}
	}
	return best
}
