package sonic

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// Names of the CONFIG_DB objects the renderer writes.
const (
	// RoCEMap names the maps of the recipe (DSCP_TO_TC_MAP and the TC maps every port binds).
	RoCEMap = "ROCE"
	// StockMap is what a DSCP map identical to SONiC's stock qos_config.j2 map is called.
	StockMap = "AZURE"

	wredProfile     = "AZURE_LOSSLESS"
	schedLossy      = "scheduler.0"
	schedLossless   = "scheduler.1"
	schedStrict     = "scheduler.strict"
	schedWeighted   = "scheduler.dwrr%d" // a stated DWRR weight other than the stock ones
	lossyProfile    = "ingress_lossy_profile"
	losslessProfile = "pg_lossless_%d_%dm_profile" // by port speed in Mb/s and cable, as the buffer templates name them
)

// tables is CONFIG_DB: table -> key -> field -> value.
type tables map[string]map[string]map[string]string

func (t tables) set(table, key string, fields map[string]string) {
	if t[table] == nil {
		t[table] = map[string]map[string]string{}
	}
	t[table][key] = fields
}

// configDB builds the switch's CONFIG_DB from the state.
func configDB(sw *switchstate.Switch) tables {
	db := tables{}
	ports := sw.SortedPorts()
	role := "LeafRouter"
	if strings.HasPrefix(sw.Name, "spine") {
		role = "SpineRouter"
	}
	sp := spellingOf(sw)
	pfcwd := "disable"
	for _, p := range ports {
		if watchdog(p) != [8]bool{} {
			pfcwd = "enable"
		}
	}
	db.set("DEVICE_METADATA", "localhost", map[string]string{
		"hostname": sw.Name, "hwsku": model(sw), "mac": strings.ToLower(sw.MAC), "platform": platformName(sw),
		"type": role, "buffer_model": bufferModel(sw), "default_pfcwd_status": pfcwd, "bgp_asn": "65100",
	})

	addManagement(db, sw.ManagementOf())

	maps := dscpMapNames(ports)
	for name, m := range maps.byName {
		row := map[string]string{}
		for d, tc := range m {
			row[strconv.Itoa(d)] = strconv.Itoa(tc)
		}
		db.set("DSCP_TO_TC_MAP", name, row)
	}
	identity := map[string]string{}
	for i := 0; i < 8; i++ {
		identity[strconv.Itoa(i)] = strconv.Itoa(i)
	}
	for _, t := range []string{"DOT1P_TO_TC_MAP", "TC_TO_QUEUE_MAP", "TC_TO_PRIORITY_GROUP_MAP", "MAP_PFC_PRIORITY_TO_QUEUE"} {
		db.set(t, sp.tcMaps, identity)
	}

	if sw.Design == DesignDefault {
		// Only on the ASICs of pfc_to_pg_map_supported_asics (mellanox, barefoot).
		db.set("PFC_PRIORITY_TO_PRIORITY_GROUP_MAP", StockMap, map[string]string{"3": "3", "4": "4"})
	}
	addSchedulers(db, ports)
	addWRED(db, ports)
	if bufferModel(sw) == "dynamic" {
		// The dynamic model computes pool sizes (reclaiming-buffer-dynamic-double-pools-expected.json).
		db.set("BUFFER_POOL", "ingress_lossless_pool", map[string]string{"mode": "dynamic", "type": "ingress"})
		db.set("BUFFER_POOL", "egress_lossless_pool", map[string]string{"mode": "dynamic", "type": "egress"})
	} else {
		db.set("BUFFER_POOL", "ingress_lossless_pool", map[string]string{"mode": "dynamic", "size": "12766208", "type": "ingress"})
		db.set("BUFFER_POOL", "egress_lossless_pool", map[string]string{"mode": "static", "size": "12766208", "type": "egress"})
	}
	db.set("BUFFER_PROFILE", lossyProfile, map[string]string{"dynamic_th": "3", "pool": "ingress_lossless_pool", "size": "0"})

	if pfcwd == "enable" {
		// Written by `config pfcwd start_default`, which does nothing unless default_pfcwd_status is enable.
		db.set("PFC_WD", "GLOBAL", map[string]string{"POLL_INTERVAL": "200"})
	}
	for _, fc := range []string{"PFCWD", "QUEUE", "PG_WATERMARK", "PORT", "WRED_ECN_QUEUE"} {
		db.set("FLEX_COUNTER_TABLE", fc, map[string]string{"FLEX_COUNTER_STATUS": "enable"})
	}
	// Queue counters refresh every 10 s by default (counterpoll QUEUE_STAT); the lab's
	// operators tuned them to the port counters' 1 s (`counterpoll queue interval 1000`),
	// so a transfer waits one second for its last drops rather than ten.
	db["FLEX_COUNTER_TABLE"]["QUEUE"]["POLL_INTERVAL"] = "1000"

	for i, p := range ports {
		addPort(db, p, i, maps.of[p.Name], sp)
	}
	return db
}

// addPort writes one port's rows. The alias is the front-panel name etpK (K = N/4+1), the
// name SONiC's lldpd announces the port by (lab/host_lldp.go announces the same).
func addPort(db tables, p *switchstate.Port, index int, dscpMap string, sp spelling) {
	n := portNumber(p.Name)
	if n < 0 {
		n = index * 4
	}
	admin := "up"
	if !p.Up {
		admin = "down"
	}
	asym := "off"
	if asymmetric(p) {
		asym = "on"
	}
	row := map[string]string{
		"admin_status": admin, "alias": fmt.Sprintf("etp%d", n/4+1), "index": strconv.Itoa(n / 4),
		"lanes": fmt.Sprintf("%d,%d,%d,%d", n, n+1, n+2, n+3), "mtu": strconv.Itoa(p.MTU),
		"speed": strconv.Itoa(p.Speed * 1000), "fec": "rs", "pfc_asym": asym,
	}
	if d := neighborLabel(p); d != "" {
		row["description"] = d
		db.set("DEVICE_NEIGHBOR", p.Name, map[string]string{"name": p.Neighbor.SystemName, "port": p.Neighbor.PortName()})
	}
	db.set("PORT", p.Name, row)

	qos := map[string]string{
		"tc_to_queue_map": sp.tcMaps, "tc_to_pg_map": sp.tcMaps, "pfc_to_queue_map": sp.tcMaps,
		"pfc_enable": list(pfcEnable(p)), "pfcwd_sw_enable": list(watchdog(p)),
	}
	if sp.pfcwdOnPFC {
		qos["pfcwd_sw_enable"] = list(pfcEnable(p))
		qos["pfc_to_pg_map"] = StockMap
	}
	if p.TrustDSCP {
		qos["dscp_to_tc_map"] = dscpMap
	} else {
		qos["dot1p_to_tc_map"] = sp.tcMaps
	}
	db.set("PORT_QOS_MAP", p.Name, qos)

	if watchdog(p) != [8]bool{} {
		db.set("PFC_WD", p.Name, map[string]string{"action": "drop", "detection_time": "200",
			"restoration_time": "200", "pfc_stat_history": "disable"})
	}

	for q := 0; q < 8; q++ {
		fields := map[string]string{}
		if sched := schedulerOf(p, q); sched != "" {
			fields["scheduler"] = sched
		}
		if p.ECN[q] {
			fields["wred_profile"] = wredName(p)
		}
		if len(fields) > 0 {
			db.set("QUEUE", fmt.Sprintf("%s|%d", p.Name, q), fields)
		}
	}

	addBufferPGs(db, p, sp)
	addCableLength(db, p)
}

// addBufferPGs binds a buffer profile to priority group 0, to every lossless PG and to every
// PG of a PFC priority, grouping consecutive PGs with the same profile into one key ("3-4").
func addBufferPGs(db tables, p *switchstate.Port, sp spelling) {
	profile := fmt.Sprintf(losslessProfile, p.Speed*1000, p.Headroom.CableM)
	if sp.dynamic {
		profile = "NULL" // buffermgrd computes the lossless profile into APPL_DB
	}
	pfc := pfcEnable(p)
	var names [8]string
	for pg := 0; pg < 8; pg++ {
		switch {
		case p.Lossless[pg]:
			names[pg] = profile
		case pg == 0 || pfc[pg]:
			names[pg] = lossyProfile
		}
	}
	for pg := 0; pg < 8; {
		if names[pg] == "" {
			pg++
			continue
		}
		end := pg
		for end+1 < 8 && names[end+1] == names[pg] {
			end++
		}
		key := fmt.Sprintf("%s|%d", p.Name, pg)
		if end > pg {
			key = fmt.Sprintf("%s|%d-%d", p.Name, pg, end)
		}
		db.set("BUFFER_PG", key, map[string]string{"profile": names[pg]})
		if names[pg] == profile && !sp.dynamic {
			db.set("BUFFER_PROFILE", profile, losslessRow(p.Headroom))
		}
		pg = end + 1
	}
}

// dscpMaps are the DSCP_TO_TC_MAP entries and which one each port binds.
type dscpMaps struct {
	byName map[string][64]int
	of     map[string]string // port -> map name
}

// dscpMapNames names the distinct DSCP maps of the DSCP-trusting ports: the recipe's map is
// RoCEMap, SONiC's stock map is StockMap, any other map is named after the first port that
// uses it.
func dscpMapNames(ports []*switchstate.Port) dscpMaps {
	out := dscpMaps{byName: map[string][64]int{}, of: map[string]string{}}
	recipe, stock := recipeDSCPMap(), StockDSCPMap()
	named := map[[64]int]string{recipe: RoCEMap, stock: StockMap}
	for _, p := range ports {
		if !p.TrustDSCP {
			continue
		}
		name, ok := named[p.DSCPToTC]
		if !ok {
			name = "DSCP_TO_TC_" + strings.ToUpper(p.Name)
			named[p.DSCPToTC] = name
		}
		out.byName[name] = p.DSCPToTC
		out.of[p.Name] = name
	}
	return out
}

// recipeDSCPMap is the map switchstate.HealthyPort gives a port (DSCP d -> TC d>>3).
func recipeDSCPMap() [64]int {
	var m [64]int
	for d := range m {
		m[d] = d >> 3
	}
	return m
}

// StockDSCPMap is SONiC's stock DSCP_TO_TC_MAP "AZURE" (sonic-buildimage files/build_templates/qos_config.j2):
// 3 -> 3, 4 -> 4, 8 -> 0, 46 -> 5, 48 -> 6 and every other DSCP -> 1.
func StockDSCPMap() [64]int {
	var m [64]int
	for d := range m {
		m[d] = 1
	}
	m[3], m[4], m[8], m[46], m[48] = 3, 4, 0, 5, 6
	return m
}

// platformName is the ONIE platform string of a Mellanox SKU ("x86_64-mlnx_msn4600c-r0"), or
// the virtual switch's.
func platformName(sw *switchstate.Switch) string {
	if rest, ok := strings.CutPrefix(model(sw), "Mellanox-SN"); ok {
		return "x86_64-mlnx_msn" + strings.ToLower(rest) + "-r0"
	}
	return "x86_64-kvm_x86_64-r0"
}

// addManagement writes the AAA and SNMP tables as CONFIG_DB keeps them: TACACS+ and RADIUS
// keys in passkey fields, SNMP communities as the keys of SNMP_COMMUNITY, SNMPv3 keys as
// SNMP_USER password fields.
func addManagement(db tables, m switchstate.Management) {
	db.set("TACPLUS_SERVER", "10.255.0.9", map[string]string{"passkey": m.TacacsKey, "priority": "1", "tcp_port": "49"})
	db.set("RADIUS_SERVER", "10.255.0.10", map[string]string{"passkey": m.RadiusKey, "auth_port": "1812"})
	db.set("SNMP_COMMUNITY", m.Community, map[string]string{"TYPE": "RO"})
	db.set("SNMP_USER", "ops", map[string]string{
		"SNMP_USER_TYPE": "Priv", "SNMP_USER_PERMISSION": "RO",
		"SNMP_USER_AUTH_TYPE": "SHA", "SNMP_USER_AUTH_PASSWORD": m.SNMPAuth,
		"SNMP_USER_ENCRYPTION_TYPE": "AES", "SNMP_USER_ENCRYPTION_PASSWORD": m.SNMPPriv,
	})
}
