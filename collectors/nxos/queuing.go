package nxos

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// The per-queue egress counters of every port. The JSON form is read first; a switch that
// refuses `| json` for it, or prints something that does not decode, is read from the text.
const (
	CmdQueuingJSON = "show queuing interface | json"
	CmdQueuing     = "show queuing interface"
)

// QueueCounters are one port's egress counters by qos-group, named as the lab's NOS-agnostic
// queue counters are (queue<g>_tx_packets, queue<g>_drops, ...): on NX-OS the egress queue of
// qos-group g is c-out-8q-q<g>, so the qos-group number is the queue number. Only unicast
// values are kept (RoCE is unicast), and only the numbered groups (not CONTROL or SPAN).
type QueueCounters map[string]int64

// queueStat names a statistic ("Tx", "Pkts") as a counter pattern (%d is the qos-group).
// "WRED/AFD & Tail Drop" is the real text and JSON label; "Dropped" is what one exporter
// matches in JSON; "WD & Tail Drop" are the PFC watchdog's drops; "ECN" is the JSON type a
// Cisco engineer's NX-API client reads. Q Depth is a gauge, not a counter, and is left out.
func queueStat(kind, units string) (string, bool) {
	name := queueStatNames[strings.ToLower(strings.TrimSpace(kind))]
	unit := queueStatUnits[strings.ToLower(strings.TrimSpace(units))]
	if name == "" || unit == "" {
		return "", false
	}
	switch {
	case name == "drop" && unit == "packets":
		return "queue%d_drops", true // the name SONiC's queue counters use for dropped packets
	case name == "watchdog_drop" && unit == "packets":
		return "queue%d_watchdog_drops", true
	}
	return "queue%d_" + name + "_" + unit, true
}

// queueStatNames and queueStatUnits are built once: queueStat runs for every statistic of
// every qos-group of every port.
var (
	queueStatNames = map[string]string{"tx": "tx", "wred/afd & tail drop": "drop", "dropped": "drop",
		"wd & tail drop": "watchdog_drop", "ecn": "ecn_marked"}
	queueStatUnits = map[string]string{"pkts": "packets", "byts": "bytes"}
)

// queueCounter fills a queueStat pattern's one %d with the qos-group, without fmt.
func queueCounter(pattern string, group int64) string {
	return strings.Replace(pattern, "%d", strconv.FormatInt(group, 10), 1)
}

// ParseQueuing parses `show queuing interface`, as `| json` (detected by its opening brace)
// or as text, into each port's egress queue counters.
func ParseQueuing(out string) (map[string]QueueCounters, error) {
	if err := descriptor.Refused(out); err != nil {
		return nil, fmt.Errorf("%s: %w", CmdQueuing, err)
	}
	if strings.HasPrefix(strings.TrimSpace(out), "{") {
		return parseQueuingJSON(out)
	}
	return parseQueuingText(out)
}

var (
	queuingHeading = regexp.MustCompile(`^(Egress|Ingress) Queuing for (\S+)`)
	groupBox       = regexp.MustCompile(`^\|\s*QOS GROUP (\d+)\s*\|$`)
	// statRow is `|                   Tx Pkts |       202328436|               0|`.
	statRow = regexp.MustCompile(`^\|\s*(.+?)\s+(Pkts|Byts)\s*\|\s*(\d+)\s*\|\s*(\d+)\s*\|$`)
)

// parseQueuingText reads each `Egress Queuing for <if>` section's `QOS GROUP <g>` boxes: rows
// of a statistic and its unit with the unicast and multicast values.
func parseQueuingText(out string) (map[string]QueueCounters, error) {
	res := map[string]QueueCounters{}
	var cur QueueCounters
	group := -1
	for _, raw := range strings.Split(out, "\n") {
		line := strings.TrimSpace(strings.TrimRight(raw, "\r"))
		if m := queuingHeading.FindStringSubmatch(line); m != nil {
			cur, group = nil, -1
			if m[1] == "Egress" {
				cur = QueueCounters{}
				res[m[2]] = cur
			}
			continue
		}
		if cur == nil {
			continue
		}
		if m := groupBox.FindStringSubmatch(line); m != nil {
			g, _ := strconv.Atoi(m[1])
			if g > 7 {
				return nil, fmt.Errorf("%s: QOS GROUP %d is not a qos-group 0-7", CmdQueuing, g)
			}
			group = g
			continue
		}
		if strings.Contains(line, "QOS GROUP") { // CONTROL QOS GROUP, SPAN QOS GROUP
			group = -1
			continue
		}
		m := statRow.FindStringSubmatch(line)
		if m == nil || group < 0 {
			continue
		}
		pattern, ok := queueStat(m[1], m[2])
		if !ok {
			continue
		}
		v, err := strconv.ParseInt(m[3], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s: QOS GROUP %d %s %s: %w", CmdQueuing, group, m[1], m[2], err)
		}
		cur[queueCounter(pattern, int64(group))] = v
	}
	if len(res) == 0 {
		return nil, fmt.Errorf("%s: no `Egress Queuing for <interface>` section in the output", CmdQueuing)
	}
	return res, nil
}
