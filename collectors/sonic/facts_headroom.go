package sonic

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/topology"
)

// spectrumASICs are SONiC's ASIC_TABLE constants per Mellanox platform family (ONIE platform
// prefix), as files/build_templates/asic_table.j2 writes them into STATE_DB: cell size in
// bytes, pipeline latency, MAC/PHY delay and peer response time in KB. STATE_DB is not in the
// running configuration, so the collector supplies them from the platform name.
var spectrumASICs = []struct {
	prefix string
	asic   topology.HeadroomASIC
}{
	{"x86_64-mlnx_msn2", topology.HeadroomASIC{Name: "MELLANOX-SPECTRUM", CellSize: 96, PipelineLatencyKB: 18, MACPHYDelayKB: 0.8, PeerResponseKB: 3.8}},
	{"x86_64-mlnx_msn3", topology.HeadroomASIC{Name: "MELLANOX-SPECTRUM-2", CellSize: 144, PipelineLatencyKB: 18, MACPHYDelayKB: 0.8, PeerResponseKB: 3.8}},
	{"x86_64-mlnx_msn4", topology.HeadroomASIC{Name: "MELLANOX-SPECTRUM-3", CellSize: 144, PipelineLatencyKB: 18, MACPHYDelayKB: 0.8, PeerResponseKB: 3.8}},
}

// Defaults of CONFIG_DB LOSSLESS_TRAFFIC_PATTERN (the example of sonic-buildimage
// src/sonic-yang-models/doc/Configuration.md), for a switch without the table: the
// traditional buffer model's switches have none.
const (
	defaultLosslessMTU = 1024
	defaultSmallPacket = 100
)

// dynamicModel is whether the buffer manager computes lossless profiles itself.
func dynamicModel(db *ConfigDB) bool {
	v, _ := db.Field("DEVICE_METADATA", "localhost", "buffer_model")
	return v == "dynamic"
}

// losslessPG is a lossless priority group: the profile with an xoff bound to it, and its row.
type losslessPG struct {
	pg   int
	name string
	row  map[string]string
}

// losslessProfiles are the profiles with an xoff bound to the port's priority groups, by PG
// (a group bound twice: the last binding in key order), and whether a group binds NULL.
// They are appended to pgs, a buffer of the caller's.
func losslessProfiles(db *ConfigDB, port string, pgs []losslessPG) ([]losslessPG, bool, error) {
	keys, err := db.sortedPortKeys("BUFFER_PG", port)
	if err != nil {
		return nil, false, fmt.Errorf("BUFFER_PG table: %w", err)
	}
	null := false
	for _, k := range keys {
		name := Ref(k.row["profile"])
		if name == "NULL" {
			null = true
			continue
		}
		prof, ok := db.Row("BUFFER_PROFILE", name)
		if _, lossless := prof["xoff"]; !ok || !lossless {
			continue // lossy, or unreadable: SW-BUFFER reports it
		}
		for _, pg := range k.ids {
			if i := slices.IndexFunc(pgs, func(l losslessPG) bool { return l.pg == pg }); i >= 0 {
				pgs[i] = losslessPG{pg, name, prof}
			} else {
				pgs = append(pgs, losslessPG{pg, name, prof})
			}
		}
	}
	slices.SortFunc(pgs, func(a, b losslessPG) int { return cmp.Compare(a.pg, b.pg) })
	return pgs, null, nil
}

// PortHeadroom is the headroom of the port's lossless priority groups and the inputs of the
// Mellanox formula: PORT speed and mtu, CABLE_LENGTH, the ASIC constants of the platform and
// LOSSLESS_TRAFFIC_PATTERN. With the dynamic model and NULL profiles the buffer manager
// computes the headroom from the same formula: nothing configured to check.
func PortHeadroom(db *ConfigDB, port string) topology.Fact[topology.Headroom] {
	cfg := topology.Evidence{Command: CmdRunningConfig}
	if _, ok := db.Row("PORT", port); !ok {
		return failed[topology.Headroom](fmt.Errorf("%s is not in the CONFIG_DB PORT table", port))
	}
	var pgBuf [8]losslessPG
	pgs, null, err := losslessProfiles(db, port, pgBuf[:0])
	if err != nil {
		return failed[topology.Headroom](err)
	}
	if len(pgs) == 0 && null && dynamicModel(db) {
		cfg.Excerpt = fmt.Sprintf("DEVICE_METADATA|localhost buffer_model=dynamic; BUFFER_PG|%s profile=NULL", port)
		return topology.Known(topology.Headroom{Computed: "dynamic buffer model: buffermgrd computes the lossless " +
			"profile from the port's speed, cable length and MTU with the vendor's headroom formula"}, cfg)
	}
	platform, _ := db.Field("DEVICE_METADATA", "localhost", "platform")
	asic, ok := platformASIC(platform)
	if !ok {
		cfg.Excerpt = excerptRow(db, "DEVICE_METADATA", "localhost", "platform", "hwsku")
		return topology.Unsupported(topology.Headroom{}, "SONiC publishes a headroom formula for Mellanox Spectrum "+
			"platforms only (buffer_headroom_mellanox.lua); other ASICs size headroom from their own vendor tables", cfg)
	}
	h := topology.Headroom{PGs: make(map[int]topology.PGHeadroom, len(pgs)), ASIC: asic}
	var stack [1024]byte // the excerpt, line by line (none of them empty)
	ex := stack[:0]
	for _, l := range pgs {
		r := l.row
		h.PGs[l.pg] = topology.PGHeadroom{Profile: l.name, Xoff: atoi(r["xoff"]), Xon: atoi(r["xon"]), Size: atoi(r["size"])}
	}
	for _, l := range pgs {
		ex = appendJoined(ex, sharedValue(db, sharedKey{siteProfileHeadroom, l.name, l.pg}, func() string {
			return excerptRow(db, "BUFFER_PROFILE", l.name, "xoff", "xon", "size") + " (PG " + strconv.Itoa(l.pg) + ")"
		}))
	}
	speed, _ := db.Field("PORT", port, "speed")
	mtu, _ := db.Field("PORT", port, "mtu")
	h.SpeedMbps, h.PortMTU = atoi(speed), atoi(mtu)
	if len(ex) > 0 {
		ex = append(ex, '\n')
	}
	ex = appendExcerptRow(ex, db, "PORT", port, "speed", "mtu")
	if len(pgs) > 0 {
		cable, key, ok := cableLength(db, port)
		if !ok {
			return failed[topology.Headroom](fmt.Errorf("CABLE_LENGTH has no entry for %s, so its lossless profile cannot be sized", port))
		}
		h.CableM = cable
		ex = append(append(append(append(append(ex, "\nCABLE_LENGTH|"...), key...), ' '), port...), '=')
		ex = append(strconv.AppendInt(ex, int64(cable), 10), 'm')
	}
	if xoff, _ := db.Field("BUFFER_POOL", "ingress_lossless_pool", "xoff"); atoi(xoff) > 0 {
		h.ASIC.SharedHeadroomPool = true
	}
	ex = append(append(ex, '\n'), lossLessPattern(db, &h.ASIC)...)
	ex = append(append(ex, '\n'), sharedValue(db, sharedKey{sitePlatform, platform, 0}, func() string {
		return fmt.Sprintf("platform %s: ASIC_TABLE %s cell_size=%d pipeline_latency=%g mac_phy_delay=%g",
			platform, asic.Name, asic.CellSize, asic.PipelineLatencyKB, asic.MACPHYDelayKB)
	})...)
	cfg.Excerpt = string(ex)
	return topology.Known(h, cfg)
}

// appendJoined appends s to b as the next of lines joined by "\n", b holding none when it
// is empty.
func appendJoined(b []byte, s string) []byte {
	if len(b) > 0 {
		b = append(b, '\n')
	}
	return append(b, s...)
}

// lossLessPattern fills the lossless MTU and small-packet share from CONFIG_DB, or the
// defaults, and says which.
func lossLessPattern(db *ConfigDB, a *topology.HeadroomASIC) string {
	p := sharedValue(db, sharedKey{siteLosslessPattern, "", 0}, func() losslessPattern {
		for _, key := range sortedKeys(db.Tables["LOSSLESS_TRAFFIC_PATTERN"]) {
			row := db.Tables["LOSSLESS_TRAFFIC_PATTERN"][key]
			return losslessPattern{mtu: atoi(row["mtu"]), pct: atoi(row["small_packet_percentage"]),
				excerpt: excerptRow(db, "LOSSLESS_TRAFFIC_PATTERN", key, "mtu", "small_packet_percentage")}
		}
		from := fmt.Sprintf("no LOSSLESS_TRAFFIC_PATTERN: mtu %d, small_packet_percentage %d assumed", defaultLosslessMTU, defaultSmallPacket)
		return losslessPattern{mtu: defaultLosslessMTU, pct: defaultSmallPacket, excerpt: from, from: from}
	})
	a.LosslessMTU, a.SmallPacketPercent = p.mtu, p.pct
	if p.from != "" {
		a.LosslessPatternFrom = p.from
	}
	return p.excerpt
}

type losslessPattern struct {
	mtu, pct      int
	excerpt, from string
}

// cableLength is CABLE_LENGTH|<name>.<port> ("40m") in meters, and the table key.
func cableLength(db *ConfigDB, port string) (int, string, bool) {
	keys := sharedValue(db, sharedKey{siteCableKeys, "", 0}, func() []string { return sortedKeys(db.Tables["CABLE_LENGTH"]) })
	for _, key := range keys {
		v, ok := db.Tables["CABLE_LENGTH"][key][port]
		if !ok {
			continue
		}
		m, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), "m"))
		return m, key, err == nil && m >= 0
	}
	return 0, "", false
}

func platformASIC(platform string) (topology.HeadroomASIC, bool) {
	for _, s := range spectrumASICs {
		if strings.HasPrefix(platform, s.prefix) {
			return s.asic, true
		}
	}
	return topology.HeadroomASIC{}, false
}

// failed is a fact the running configuration could not give, with why.
func failed[T any](err error) topology.Fact[T] {
	return topology.Unknown[T](topology.Evidence{Command: CmdRunningConfig, Error: err.Error()})
}

// atoi reads a CONFIG_DB number; a missing or malformed one is 0, which the checks refuse.
func atoi(s string) int { return int(atoi64(s)) }
