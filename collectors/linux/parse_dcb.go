package linux

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/roceaudit/roceaudit/topology"
)

// ParseDcb reads the iproute2 dcb fallback: `dcb -j -N app show dev IF` (trust and DSCP map),
// `dcb -j pfc show dev IF` and `dcb -j dcbx show dev IF`. Trust is "dscp" exactly when the APP
// table has DSCP entries (that is how mlx5 and mlnx_qos define it), else "pcp". dcbxJSON ""
// means the DCBX query was not available: DCBXMode stays "".
func ParseDcb(appJSON, pfcJSON, dcbxJSON string) (topology.HostQoS, error) {
	q := topology.HostQoS{Tool: "dcb", Trust: "pcp"}

	var app struct {
		DSCPPrio []json.RawMessage `json:"dscp_prio"`
	}
	if err := unmarshalObject(appJSON, &app); err != nil {
		return topology.HostQoS{}, fmt.Errorf("dcb app: expected a JSON object such as {\"dscp_prio\":[[26,3]]}: %w", err)
	}
	if len(app.DSCPPrio) > 0 {
		q.Trust, q.DSCPToPrio = "dscp", map[int]int{}
		for i, raw := range app.DSCPPrio {
			dscp, prio, err := dcbPair(raw)
			if err != nil {
				return topology.HostQoS{}, fmt.Errorf("dcb app: dscp_prio entry %d: %w", i, err)
			}
			q.DSCPToPrio[dscp] = prio
		}
	}

	var pfc struct {
		PrioPFC []bool `json:"prio_pfc"`
	}
	if err := unmarshalObject(pfcJSON, &pfc); err != nil {
		return topology.HostQoS{}, fmt.Errorf("dcb pfc: expected a JSON object with prio_pfc: %w", err)
	}
	if len(pfc.PrioPFC) != 8 {
		return topology.HostQoS{}, fmt.Errorf("dcb pfc: prio_pfc has %d entries (expected 8 booleans)", len(pfc.PrioPFC))
	}
	copy(q.PFC[:], pfc.PrioPFC)

	if strings.TrimSpace(dcbxJSON) != "" {
		var flags map[string]bool
		if err := unmarshalObject(dcbxJSON, &flags); err != nil {
			return topology.HostQoS{}, fmt.Errorf("dcb dcbx: expected a JSON object of flags such as {\"host\":true,\"ieee\":true}: %w", err)
		}
		// mlx5 reports `host` only when the firmware hands DCBX to the OS.
		q.DCBXMode = "firmware"
		if flags["host"] {
			q.DCBXMode = "os"
		}
	}
	return q, nil
}

// dcbPair reads one [dscp, prio] pair; iproute2 >= 6.5 appends a " " element, ignored here.
func dcbPair(raw json.RawMessage) (dscp, prio int, err error) {
	var elems []json.RawMessage
	if err := json.Unmarshal(raw, &elems); err != nil || len(elems) < 2 {
		return 0, 0, fmt.Errorf("expected [DSCP, PRIO] (optionally followed by \" \"), got %s", raw)
	}
	if err := json.Unmarshal(elems[0], &dscp); err != nil || dscp < 0 || dscp > 63 {
		return 0, 0, fmt.Errorf("DSCP %s: expected an integer 0..63", elems[0])
	}
	if err := json.Unmarshal(elems[1], &prio); err != nil || prio < 0 || prio > 7 {
		return 0, 0, fmt.Errorf("priority %s: expected an integer 0..7", elems[1])
	}
	return dscp, prio, nil
}

// unmarshalObject decodes text that must be one JSON object (not null, not an array).
func unmarshalObject(text string, v any) error {
	if !strings.HasPrefix(strings.TrimSpace(text), "{") {
		return fmt.Errorf("output does not start with '{'")
	}
	return json.Unmarshal([]byte(text), v)
}
