package linuxhost

import (
	"sort"
	"strconv"
	"strings"
)

// mlnxQosNoDev is how mlnx_qos (a Python script) dies when the netdev has no DCB ops or does
// not exist: the dcbnl netlink call raises.
func mlnxQosNoDev(errno string) string {
	return "Traceback (most recent call last):\n" +
		"  File \"/usr/bin/mlnx_qos\", line 510, in <module>\n" +
		"    if (ctrl.get_dcbx() & DCB_CAP_DCBX_HOST):\n" +
		"OSError: " + errno + "\n"
}

// renderMlnxQos is `mlnx_qos -i IF` in the current mlnx-tools format (pretty_print, with
// receive buffers and max_buffer_size; Mellanox/mlnx-tools python/mlnx_qos). The TABs and the trailing spaces of the
// PFC rows are the tool's own.
func (h *Host) renderMlnxQos(ifname string) (string, string, int) {
	n := h.Netdev(ifname)
	switch {
	case n == nil:
		return "", mlnxQosNoDev("[Errno 19] No such device"), 1
	case n.Eth == nil:
		return "", mlnxQosNoDev("[Errno 95] Operation not supported"), 1
	}
	e := n.Eth
	var b strings.Builder
	if h.LLDPadActive {
		b.WriteString("****** WARNING: lldpad service is running and may overwrite your settings ******\n\n")
	}
	if e.DCBXHost {
		b.WriteString("DCBX mode: OS controlled\n")
	} else {
		b.WriteString("DCBX mode: Firmware controlled\n")
	}
	b.WriteString("Priority trust state: " + e.Trust + "\n")
	if e.Trust == "dscp" {
		b.WriteString("dscp2prio mapping:\n")
		writeDSCP2Prio(&b, e.DSCP2Prio)
	}
	b.WriteString("Receive buffer size (bytes): ")
	for _, s := range e.BufferSize {
		b.WriteString(strconv.Itoa(s))
		b.WriteByte(',')
	}
	b.WriteString("max_buffer_size=" + strconv.Itoa(e.MaxBufferSize) + "\n")
	b.WriteString("Cable len: " + strconv.Itoa(e.CableLen) + "\n")
	b.WriteString("PFC configuration:\n")
	b.WriteString("\tpriority    0   1   2   3   4   5   6   7\n")
	b.WriteString("\tenabled     ")
	for _, on := range e.PFC {
		b.WriteString(bit(on) + "   ")
	}
	b.WriteString("\n\tbuffer      ")
	for _, buf := range e.Prio2Buffer {
		b.WriteString(strconv.Itoa(buf) + "   ")
	}
	b.WriteString("\n")
	tc2up := map[int][]int{}
	for prio, tc := range e.PrioTC {
		tc2up[tc] = append(tc2up[tc], prio)
	}
	tcs := make([]int, 0, len(tc2up))
	for tc := range tc2up {
		tcs = append(tcs, tc)
	}
	sort.Ints(tcs)
	for _, tc := range tcs {
		b.WriteString("tc: " + strconv.Itoa(tc) + " ratelimit: unlimited, tsa: vendor\n")
		for _, prio := range tc2up[tc] {
			b.WriteString("\t priority:  " + strconv.Itoa(prio) + "\n")
		}
	}
	return b.String(), "", 0
}

// writeDSCP2Prio follows print_dscp2prio_sysfs: DSCPs listed high to low per priority as
// "%02d,", wrapped every 8 values (24 characters) under the same prefix.
func writeDSCP2Prio(b *strings.Builder, m [64]int) {
	var per [8][]byte
	for dscp := 63; dscp >= 0; dscp-- {
		per[m[dscp]] = append(per[m[dscp]], byte('0'+dscp/10), byte('0'+dscp%10), ',') // %02d,
	}
	for prio, s := range per {
		pad := "\tprio:" + strconv.Itoa(prio) + " dscp:"
		for len(s) > 24 {
			b.WriteString(pad)
			b.Write(s[:24])
			b.WriteByte('\n')
			s = s[24:]
		}
		if len(s) > 0 {
			b.WriteString(pad)
			b.Write(s)
			b.WriteByte('\n')
		}
	}
}

// dcbPort finds the DCB port of a netdev, or the error iproute2 dcb prints when it cannot
// read its attributes (perror "Attribute read").
func (h *Host) dcbPort(ifname string) (*EthPort, string) {
	n := h.Netdev(ifname)
	switch {
	case n == nil:
		return nil, "Attribute read: No such device\n"
	case n.Eth == nil:
		return nil, "Attribute read: Operation not supported\n"
	}
	return n.Eth, ""
}

// renderDcbApp is `dcb -j -N app show dev IF` (iproute2 ≥ 6.5: every pair carries a trailing
// " " element; iproute2 dcb/dcb_app.c). mlx5 trust dscp is the presence of the 64 DSCP APP entries;
// trust pcp has none, which prints an empty object.
func (h *Host) renderDcbApp(ifname string) (string, string, int) {
	e, errText := h.dcbPort(ifname)
	if e == nil {
		return "", errText, 1
	}
	if e.Trust != "dscp" {
		return "{}\n", "", 0
	}
	out := make([]byte, 0, 16+64*12)
	out = append(out, `{"dscp_prio":[`...)
	for dscp, prio := range e.DSCP2Prio {
		if dscp > 0 {
			out = append(out, ',')
		}
		out = append(out, '[')
		out = strconv.AppendInt(out, int64(dscp), 10)
		out = append(out, ',')
		out = strconv.AppendInt(out, int64(prio), 10)
		out = append(out, `," "]`...)
	}
	return string(append(out, "]}\n"...)), "", 0
}

// renderDcbPFC is `dcb -j pfc show dev IF` (dcb_pfc.c; delay is mlx5's cable length).
func (h *Host) renderDcbPFC(ifname string) (string, string, int) {
	e, errText := h.dcbPort(ifname)
	if e == nil {
		return "", errText, 1
	}
	on := make([]string, 8)
	for i, v := range e.PFC {
		on[i] = strconv.FormatBool(v)
	}
	return `{"pfc_cap":8,"macsec_bypass":false,"delay":` + strconv.Itoa(e.CableLen) + `,"prio_pfc":[` + strings.Join(on, ",") + "]}\n", "", 0
}

// renderDcbDCBX is `dcb -j dcbx show dev IF`: one key per set flag, low bit first. mlx5
// reports cee+ieee, plus host only when the OS owns DCBX.
func (h *Host) renderDcbDCBX(ifname string) (string, string, int) {
	e, errText := h.dcbPort(ifname)
	if e == nil {
		return "", errText, 1
	}
	if e.DCBXHost {
		return `{"host":true,"cee":true,"ieee":true}` + "\n", "", 0
	}
	return `{"cee":true,"ieee":true}` + "\n", "", 0
}
