package nxos

import (
	"encoding/json"
	"fmt"
)

// CmdVersion reads the NX-OS release and chassis.
const CmdVersion = "show version | json"

// Version is what `show version | json` says about the box.
type Version struct {
	Chassis string
	Version string
}

// String is the NOS description stored in SwitchFacts.NOS.
func (v Version) String() string {
	s := "Cisco NX-OS " + v.Version
	if v.Chassis != "" {
		s += " (" + v.Chassis + ")"
	}
	return s
}

// ParseVersion parses `show version | json` (nxos_ver_str on 9.x and later,
// kickstart_ver_str on 7.x).
func ParseVersion(out string) (Version, error) {
	if err := descriptor.Refused(out); err != nil {
		return Version{}, fmt.Errorf("%s: %w", CmdVersion, err)
	}
	b, err := body(out)
	if err != nil {
		return Version{}, fmt.Errorf("%s: %w", CmdVersion, err)
	}
	var raw struct {
		NXOS      string `json:"nxos_ver_str"`
		Kickstart string `json:"kickstart_ver_str"`
		Chassis   string `json:"chassis_id"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return Version{}, fmt.Errorf("%s: unexpected shape: %w", CmdVersion, err)
	}
	v := Version{Version: raw.NXOS, Chassis: raw.Chassis}
	if v.Version == "" {
		v.Version = raw.Kickstart
	}
	if v.Version == "" {
		return Version{}, fmt.Errorf("%s: neither nxos_ver_str nor kickstart_ver_str in the output", CmdVersion)
	}
	return v, nil
}
