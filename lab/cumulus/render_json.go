package cumulus

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// NVUE's `-o json` prints the object tree the text shows, keys as in the text, raw numbers
// (bytes, never "1.43 MB") and whole strings (never cut short). The lab renders JSON for the
// paths a collector reads as JSON; fixtures/README.md says which shapes were seen where.

// nvJSON prints v as NVUE's `-o json` does: indented two spaces.
func nvJSON(v any) string {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		// Every value here is built from plain maps and numbers.
		panic(fmt.Sprintf("cumulus: render JSON: %v", err))
	}
	return string(b) + "\n"
}

// showInterfaceLLDPJSON renders `nv show interface lldp -o json`: an object per interface
// (the management port and every front-panel port) with its type and, on a port whose link is
// up, the LLDP neighbour under lldp.neighbor.<system name>.
func showInterfaceLLDPJSON(sw *switchstate.Switch) string {
	doc := map[string]any{"eth0": map[string]any{"type": "eth"}}
	for _, p := range sw.SortedPorts() {
		i := map[string]any{"type": "swp"}
		if n := p.Neighbor; n != nil && p.Up {
			i["lldp"] = map[string]any{"neighbor": map[string]any{n.SystemName: map[string]any{
				"chassis": map[string]any{"system-name": n.SystemName},
				"port":    map[string]any{"name": n.PortID},
			}}}
		}
		doc[p.Name] = i
	}
	return nvJSON(doc)
}

// showCountersQoSJSON renders `nv show interface <if> counters qos -o json`: the text's three
// per-class tables under ingress-buffer-stats, egress-queue-stats and pfc-stats, keyed by class
// number, with the raw counts, and each traffic class's ecn-marked-frames.
func showCountersQoSJSON(p *switchstate.Port, _ bool) string {
	c := func(format string, i int) int64 { return p.Counters[fmt.Sprintf(format, i)] }
	ingress, egress, pfc := map[string]any{}, map[string]any{}, map[string]any{}
	for i := 0; i < 8; i++ {
		n := strconv.Itoa(i)
		ingress[n] = map[string]int64{"rx-frames": c("pg%d_rx_frames", i), "rx-buffer-discards": c("pg%d_rx_discard_bytes", i),
			"rx-shared-buffer-discards": c("pg%d_rx_shared_discard_bytes", i)}
		egress[n] = map[string]int64{"tx-frames": c("queue%d_tx_packets", i), "tx-bytes": c("queue%d_tx_bytes", i),
			"tx-uc-buffer-discards": c("queue%d_drop_bytes", i), "wred-discards": c("queue%d_wred_drops", i),
			"ecn-marked-frames": c("queue%d_ecn_marked_packets", i)}
		pfc[n] = map[string]int64{"rx-pause-frames": c("pfc_rx_pause_prio%d", i), "rx-pause-duration": c("pfc_rx_pause_duration_prio%d", i),
			"tx-pause-frames": c("pfc_tx_pause_prio%d", i), "tx-pause-duration": c("pfc_tx_pause_duration_prio%d", i)}
	}
	return nvJSON(map[string]any{"ingress-buffer-stats": ingress, "egress-queue-stats": egress, "pfc-stats": pfc})
}
