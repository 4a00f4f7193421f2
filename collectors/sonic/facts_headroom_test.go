package sonic

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/topology"
)

// msn2700 is a traditional-model MSN2700 CONFIG_DB: PG 3-4 of Ethernet0 on the 5 m profile of
// its pg_profile_lookup.ini row "100000 5m 50176 19456 30720 0", CABLE_LENGTH 5m.
func msn2700(t *testing.T, model, cable, pg string) *ConfigDB {
	t.Helper()
	db, err := ParseRunningConfig(`{
    "BUFFER_PG": {"Ethernet0|0": {"profile": "ingress_lossy_profile"}, "Ethernet0|3-4": {"profile": "` + pg + `"}},
    "BUFFER_POOL": {"ingress_lossless_pool": {"mode": "dynamic", "size": "12766208", "type": "ingress"}},
    "BUFFER_PROFILE": {
        "ingress_lossy_profile": {"dynamic_th": "3", "pool": "ingress_lossless_pool", "size": "0"},
        "pg_lossless_100000_5m_profile": {"dynamic_th": "0", "pool": "ingress_lossless_pool", "size": "50176", "xoff": "30720", "xon": "19456"}
    },
    "CABLE_LENGTH": {"AZURE": {` + cable + `}},
    "DEVICE_METADATA": {"localhost": {"buffer_model": "` + model + `", "hwsku": "ACS-MSN2700", "platform": "x86_64-mlnx_msn2700-r0"}},
    "PORT": {"Ethernet0": {"mtu": "9100", "speed": "100000"}},
    "QUEUE": {"Ethernet0|3-4": {"scheduler": "scheduler.1", "wred_profile": "AZURE_LOSSLESS"}},
    "WRED_PROFILE": {"AZURE_LOSSLESS": {"ecn": "ecn_all", "green_max_threshold": "2097152", "green_min_threshold": "1048576"}}
}`)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

func TestPortHeadroomTraditional(t *testing.T) {
	f := PortHeadroom(msn2700(t, "traditional", `"Ethernet0": "5m"`, "pg_lossless_100000_5m_profile"), "Ethernet0")
	want := topology.Headroom{
		PGs: map[int]topology.PGHeadroom{
			3: {Profile: "pg_lossless_100000_5m_profile", Xoff: 30720, Xon: 19456, Size: 50176},
			4: {Profile: "pg_lossless_100000_5m_profile", Xoff: 30720, Xon: 19456, Size: 50176},
		},
		SpeedMbps: 100000, CableM: 5, PortMTU: 9100,
		ASIC: topology.HeadroomASIC{Name: "MELLANOX-SPECTRUM", CellSize: 96, PipelineLatencyKB: 18, MACPHYDelayKB: 0.8, PeerResponseKB: 3.8,
			LosslessMTU: 1024, SmallPacketPercent: 100,
			LosslessPatternFrom: "no LOSSLESS_TRAFFIC_PATTERN: mtu 1024, small_packet_percentage 100 assumed"},
	}
	if f.Status != topology.FactKnown {
		t.Fatalf("status %s: %+v", f.Status, f.Source)
	}
	if d := cmp.Diff(want, f.Value); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	for _, s := range []string{`CABLE_LENGTH|AZURE Ethernet0=5m`, `xoff="30720"`, "x86_64-mlnx_msn2700-r0: ASIC_TABLE MELLANOX-SPECTRUM cell_size=96"} {
		if !strings.Contains(f.Source.Excerpt, s) {
			t.Errorf("excerpt lacks %q:\n%s", s, f.Source.Excerpt)
		}
	}
}

func TestPortHeadroomEdges(t *testing.T) {
	// No CABLE_LENGTH for the port: buffermgrd cannot size it, and neither can the audit.
	f := PortHeadroom(msn2700(t, "traditional", `"Ethernet4": "5m"`, "pg_lossless_100000_5m_profile"), "Ethernet0")
	if f.Status != topology.FactUnknown || !strings.Contains(f.Source.Error, "CABLE_LENGTH has no entry for Ethernet0") {
		t.Errorf("no cable length: %+v", f)
	}
	// Dynamic model, NULL profile: computed by the buffer manager.
	f = PortHeadroom(msn2700(t, "dynamic", `"Ethernet0": "5m"`, "NULL"), "Ethernet0")
	if f.Status != topology.FactKnown || !strings.Contains(f.Value.Computed, "dynamic buffer model") {
		t.Errorf("dynamic: %+v", f)
	}
	o := PortECNOrder(msn2700(t, "dynamic", `"Ethernet0": "5m"`, "NULL"), "Ethernet0")
	if o.Status != topology.FactKnown || o.Value.Computed == "" {
		t.Errorf("dynamic ECN order: %+v", o)
	}
	if f := PortHeadroom(msn2700(t, "traditional", "", "pg_lossless_100000_5m_profile"), "Ethernet9"); f.Status != topology.FactUnknown {
		t.Errorf("unknown port: %+v", f)
	}
}

func TestPortECNOrder(t *testing.T) {
	o := PortECNOrder(msn2700(t, "traditional", `"Ethernet0": "5m"`, "pg_lossless_100000_5m_profile"), "Ethernet0")
	pfc := topology.PFCThreshold{Profile: "pg_lossless_100000_5m_profile", Reserved: 50176 - 30720, DynamicTh: 0, HasDynamicTh: true,
		Pool: "ingress_lossless_pool", PoolSize: 12766208}
	ecn := topology.ECNThreshold{Profile: "AZURE_LOSSLESS", KMin: 1048576, KMax: 2097152}
	want := topology.ECNOrder{Queues: map[int]topology.ECNThreshold{3: ecn, 4: ecn}, PGs: map[int]topology.PFCThreshold{3: pfc, 4: pfc}}
	if d := cmp.Diff(want, o.Value); d != "" || o.Status != topology.FactKnown {
		t.Errorf("%s (-want +got):\n%s", o.Status, d)
	}
}
