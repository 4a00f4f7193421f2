package cumulus

import (
	"strconv"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// showSystem renders `nv show system` in the CL 5.2-5.10 layout (a `build` row).
func showSystem(sw *switchstate.Switch) string {
	return keyTree([]string{"operational", "applied"}, []kv{
		{"hostname", 0, []string{sw.Name, sw.Name}},
		{"build", 0, []string{"Cumulus Linux " + version(sw)}},
		{"uptime", 0, []string{"12 days, 3:02:41"}},
		{"timezone", 0, []string{"Etc/UTC"}},
	})
}

// showInterfaceLLDP renders `nv show interface lldp`: the management port and every front
// panel port, with the neighbour LLDP sees on a port whose link is up.
func showInterfaceLLDP(sw *switchstate.Switch) string {
	rows := [][]string{{"eth0", "1G", "eth", "", ""}}
	for _, p := range sw.SortedPorts() {
		host, port := "", ""
		if n := p.Neighbor; n != nil && p.Up {
			host, port = n.SystemName, n.PortID
		}
		rows = append(rows, []string{p.Name, speed(p), "swp", host, port})
	}
	return plainTable([]string{"Interface", "Speed", "Type", "Remote Host", "Remote Port"}, rows)
}

// showQoSRoCE renders `nv show qos roce`: `enable off` in the generic regime; in RoCE mode the
// profile, its switch-wide maps and pools (CL 5.10 layout of the CumulusNetworks/docs RoCE page).
func showQoSRoCE(sw *switchstate.Switch) string {
	roce, _ := Regime(sw)
	if !roce || len(sw.Ports) == 0 {
		return keyTree([]string{"operational", "applied"}, []kv{{"enable", 0, []string{"", "off"}}})
	}
	p := sw.SortedPorts()[0] // RoCE mode: every port is the same
	v := portView(p, true)
	tree := keyTree([]string{"operational", "applied"}, []kv{
		{"enable", 0, []string{"", "on"}},
		{"mode", 0, []string{"lossless", "lossless"}},
		{"congestion-control", 0, nil},
		{"congestion-mode", 1, []string{"ECN"}},
		{"enabled-tc", 1, []string{list(p.ECN)}},
		{"max-threshold", 1, []string{"1.43 MB"}},
		{"min-threshold", 1, []string{"146.48 KB"}},
		{"probability", 1, []string{"100"}},
		{"lldp-app-tlv", 0, nil},
		{"priority", 1, []string{strconv.Itoa(switchstate.RoCEPriority)}},
		{"protocol-id", 1, []string{"4791"}},
		{"selector", 1, []string{"UDP"}},
		{"pfc", 0, nil},
		{"pfc-priority", 1, []string{list(v.pfc)}},
		{"rx-enabled", 1, []string{enabled(v.rx)}},
		{"tx-enabled", 1, []string{enabled(v.tx)}},
		{"trust", 0, nil},
		{"trust-mode", 1, []string{"pcp,dscp"}},
	})

	var prio, tc [][]string
	for sp := 0; sp < 8; sp++ {
		var dscps []int
		for d, to := range p.DSCPToTC {
			if to == sp {
				dscps = append(dscps, d)
			}
		}
		i := strconv.Itoa(sp)
		prio = append(prio, []string{i, i, ints(dscps), i})
		tc = append(tc, []string{i, i, strconv.Itoa(v.spToTC[sp]), schedulerWeight(p.Strict[v.spToTC[sp]], false)})
	}
	var pools [][]string
	for i, pool := range pools4(v) {
		size := "50%"
		if pool.name == "roce-reserved-egress" {
			size = "inf"
		}
		pools = append(pools, []string{strconv.Itoa(i), pool.name, "Dynamic", size, pool.sps, pool.tcs})
	}
	return joinBlocks(tree,
		section("RoCE PCP/DSCP->SP mapping configurations", []string{"", "pcp", "dscp", "switch-prio"}, prio),
		section("RoCE SP->TC mapping and ETS configurations", []string{"", "switch-prio", "traffic-class", "scheduler-weight"}, tc),
		section("RoCE pool config", []string{"", "name", "mode", "size", "switch-priorities", "traffic-class"}, pools),
		"Exception List\n=================\nNo Data\n")
}

// pool is one RoCE buffer pool: the switch priorities (ingress) or traffic classes (egress)
// it serves.
type pool struct{ name, sps, tcs string }

// pools4 are RoCE mode's four pools: lossless switch priorities and their classes in the
// reserved pools, the rest in the default ones.
func pools4(v view) []pool {
	var lossy [8]bool
	var lossyTC, roceTC [8]bool
	for sp := 0; sp < 8; sp++ {
		lossy[sp] = !v.lossless[sp]
		if v.lossless[sp] {
			roceTC[v.spToTC[sp]] = true
		}
	}
	for sp := 0; sp < 8; sp++ {
		if lossy[sp] && !roceTC[v.spToTC[sp]] {
			lossyTC[v.spToTC[sp]] = true
		}
	}
	return []pool{
		{"lossy-default-ingress", list(lossy), "-"},
		{"roce-reserved-ingress", list(v.lossless), "-"},
		{"lossy-default-egress", "-", list(lossyTC)},
		{"roce-reserved-egress", "-", list(roceTC)},
	}
}

// schedulerWeight is the RoCE tables' scheduler column: the switch-wide table says
// "strict-priority" / "DWRR-50%", the port status "strict priority" / "dwrr-50%".
func schedulerWeight(strict, port bool) string {
	switch {
	case strict && port:
		return "strict priority"
	case strict:
		return "strict-priority"
	case port:
		return "dwrr-50%"
	}
	return "DWRR-50%"
}

func enabled(on bool) string {
	if on {
		return "enabled"
	}
	return "disabled"
}
