package nxos

import (
	"strings"

	"github.com/roceaudit/roceaudit/lab/nosfmt"
	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// showVersion renders `show version | json` (the key set of the NX-OS fixture, 9.x and later).
func showVersion(sw *switchstate.Switch) string {
	v := version(sw)
	image := strings.NewReplacer("(", ".", ")", "").Replace(v)
	return jsonOut(struct {
		Header      string `json:"header_str"`
		BIOS        string `json:"bios_ver_str"`
		NXOS        string `json:"nxos_ver_str"`
		BIOSTime    string `json:"bios_cmpl_time"`
		File        string `json:"nxos_file_name"`
		CompileTime string `json:"nxos_cmpl_time"`
		Timestamp   string `json:"nxos_timestamp"`
		Chassis     string `json:"chassis_id"`
		CPU         string `json:"cpu_name"`
		Memory      int    `json:"memory"`
		MemType     string `json:"mem_type"`
		BoardID     string `json:"proc_board_id"`
		HostName    string `json:"host_name"`
		UptimeDays  int    `json:"kern_uptm_days"`
		UptimeHours int    `json:"kern_uptm_hrs"`
		UptimeMins  int    `json:"kern_uptm_mins"`
		UptimeSecs  int    `json:"kern_uptm_secs"`
	}{
		Header: strings.ReplaceAll(banner, "\r\n", "\n"), BIOS: "05.47", NXOS: v, BIOSTime: "04/28/2022",
		File: "bootflash:///nxos64-cs." + image + ".M.bin", CompileTime: "8/30/2022 12:00:00",
		Timestamp: "08/31/2022 00:31:01", Chassis: chassis(sw), CPU: "Intel(R) Xeon(R) CPU D-1526 @ 1.80GHz",
		Memory: 32802148, MemType: "kB", BoardID: "FDO24010ABC", HostName: sw.Name,
		UptimeDays: 41, UptimeHours: 3, UptimeMins: 12, UptimeSecs: 7,
	})
}

// ifRow is one ROW_interface; mgmt0 leaves the Ethernet-only members out.
type ifRow struct {
	Interface  string `json:"interface"`
	State      string `json:"state"`
	StateRsn   string `json:"state_rsn_desc,omitempty"`
	AdminState string `json:"admin_state"`
	ShareState string `json:"share_state,omitempty"`
	HwDesc     string `json:"eth_hw_desc"`
	HwAddr     string `json:"eth_hw_addr"`
	BiaAddr    string `json:"eth_bia_addr"`
	Desc       string `json:"desc,omitempty"`
	MTU        string `json:"eth_mtu"`
	BW         string `json:"eth_bw"`
	Mode       string `json:"eth_mode,omitempty"`
	Duplex     string `json:"eth_duplex"`
	Speed      string `json:"eth_speed"`
	Autoneg    string `json:"eth_autoneg"`
	InFlow     string `json:"eth_in_flowctrl,omitempty"`
	OutFlow    string `json:"eth_out_flowctrl,omitempty"`
	AdminFEC   string `json:"eth_admin_fec_state,omitempty"`
	OperFEC    string `json:"eth_oper_fec_state,omitempty"`
	JumboIn    string `json:"eth_jumbo_inpkts,omitempty"`
	InUcast    string `json:"eth_inucast,omitempty"`
	InBytes    string `json:"eth_inbytes,omitempty"`
	InPause    string `json:"eth_inpause,omitempty"`
	OutUcast   string `json:"eth_outucast,omitempty"`
	OutBytes   string `json:"eth_outbytes,omitempty"`
	OutPause   string `json:"eth_outpause,omitempty"`
}

// showInterface renders `show interface | json`: mgmt0, then every front-panel port with its
// MTU, 802.3x flow control, traffic (eth_inucast/eth_inbytes/eth_outucast/eth_outbytes) and
// pause counters, as strings like the other counters.
func showInterface(sw *switchstate.Switch) string {
	onOff := func(on bool) string {
		if on {
			return "on"
		}
		return "off"
	}
	rs := []ifRow{{Interface: "mgmt0", State: "up", AdminState: "up", HwDesc: "GigabitEthernet",
		HwAddr: nosfmt.DottedMAC(sw.BaseMAC(defaultMAC).String()), BiaAddr: nosfmt.DottedMAC(sw.BaseMAC(defaultMAC).String()), MTU: "1500",
		BW: "1000000", Duplex: "full", Speed: "1000 Mb/s", Autoneg: "on"}}
	for i, p := range sw.Ports {
		mac := nosfmt.DottedMAC(sw.PortMAC(defaultMAC, i).String())
		r := ifRow{Interface: p.Name, State: "up", AdminState: "up", ShareState: "Dedicated",
			HwDesc: "100/1000/10000/25000/40000/50000/100000 Ethernet", HwAddr: mac, BiaAddr: mac,
			Desc: neighborLabel(p), MTU: itoa(p.MTU), BW: itoa(p.Speed * 1_000_000), Mode: "access", Duplex: "full",
			Speed: itoa(p.Speed) + " Gb/s", Autoneg: "on", InFlow: onOff(p.PauseRX), OutFlow: onOff(p.PauseTX),
			AdminFEC: "auto", OperFEC: "rs-fec", JumboIn: itoa(counter(p, "jumbo_in")),
			InUcast: itoa(counter(p, switchstate.InUcastPkts)), InBytes: itoa(counter(p, switchstate.InOctets)),
			InPause: itoa(counter(p, "rx_pause")), OutUcast: itoa(counter(p, switchstate.OutUcastPkts)),
			OutBytes: itoa(counter(p, switchstate.OutOctets)), OutPause: itoa(counter(p, "tx_pause"))}
		if !p.Up {
			r.State, r.StateRsn, r.Speed, r.OperFEC = "down", "Link not connected", "auto-speed", "off"
		}
		rs = append(rs, r)
	}
	return jsonOut(map[string]any{"TABLE_interface": map[string]any{"ROW_interface": rows(rs)}})
}

// nborRow is one ROW_nbor_detail; TLVs a neighbour did not send read "null" or
// "not advertised", as NX-OS prints them.
type nborRow struct {
	ChassisType  string `json:"chassis_type"`
	ChassisID    string `json:"chassis_id"`
	PortType     string `json:"port_type"`
	PortID       string `json:"port_id"`
	LocalPort    string `json:"l_port_id"`
	PortDesc     string `json:"port_desc"`
	SysName      string `json:"sys_name"`
	SysDesc      string `json:"sys_desc"`
	TTL          string `json:"ttl"`
	SystemCap    string `json:"system_capability"`
	EnabledCap   string `json:"enabled_capability"`
	MgmtAddrType string `json:"mgmt_addr_type"`
	MgmtAddr     string `json:"mgmt_addr"`
	VLANID       string `json:"vlan_id"`
}

// showLLDP renders `show lldp neighbors detail | json`: the neighbours of the ports whose
// link is up, in port order. NX-OS prints nothing at all when there is none. A MAC port ID (a
// host's lldpd) is port_type "Mac Address", dotted, as public `show lldp neighbors | json`
// captures print it.
func showLLDP(sw *switchstate.Switch) string {
	orNull := func(s, null string) string {
		if s == "" {
			return null
		}
		return s
	}
	var rs []nborRow
	for _, p := range sw.SortedPorts() {
		n := p.Neighbor
		if n == nil || !p.Up {
			continue
		}
		caps := "S"
		if strings.HasPrefix(n.PortID, "Ethernet") || strings.HasPrefix(n.PortID, "swp") {
			caps = "B,R"
		}
		r := nborRow{ChassisType: "Mac Address", ChassisID: nosfmt.DottedMAC(n.ChassisID), PortType: "Interface Name",
			PortID: n.PortID, LocalPort: shortName(p.Name), PortDesc: orNull(n.PortDescr, "null"),
			SysName: orNull(n.SystemName, "null"), SysDesc: "null", TTL: "114", SystemCap: caps, EnabledCap: caps,
			MgmtAddrType: "IPV4", MgmtAddr: n.MgmtIP, VLANID: "not advertised"}
		if n.PortIDIsMAC() {
			r.PortType, r.PortID = "Mac Address", nosfmt.DottedMAC(n.PortID) // a host's lldpd
		}
		if n.MgmtIP == "" {
			r.MgmtAddrType, r.MgmtAddr = "Address not advertised", "not advertised"
		}
		rs = append(rs, r)
	}
	if len(rs) == 0 {
		return ""
	}
	type table struct {
		Row any `json:"ROW_nbor_detail"`
	}
	return jsonOut(struct {
		Hdr   string `json:"neigh_hdr"`
		Table table  `json:"TABLE_nbor_detail"`
		Count string `json:"neigh_count"`
	}{"neigh_hdr", table{rows(rs)}, itoa(len(rs))})
}
