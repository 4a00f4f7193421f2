package eos

import (
	"encoding/json"
	"fmt"
)

// CmdVersion reads the EOS version and model.
const CmdVersion = "show version | json"

// Version is what `show version | json` says about the box.
type Version struct {
	Model   string
	Version string
}

// String is the NOS description stored in SwitchFacts.NOS.
func (v Version) String() string {
	s := "Arista EOS " + v.Version
	if v.Model != "" {
		s += " (" + v.Model + ")"
	}
	return s
}

// ParseVersion parses `show version | json`.
func ParseVersion(out string) (Version, error) {
	if err := descriptor.Refused(out); err != nil {
		return Version{}, fmt.Errorf("%s: %w", CmdVersion, err)
	}
	var raw struct {
		ModelName *string `json:"modelName"`
		Version   *string `json:"version"`
	}
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		return Version{}, fmt.Errorf("%s: not JSON: %w", CmdVersion, err)
	}
	if raw.Version == nil || *raw.Version == "" {
		return Version{}, fmt.Errorf("%s: no \"version\" key in the output", CmdVersion)
	}
	v := Version{Version: *raw.Version}
	if raw.ModelName != nil {
		v.Model = *raw.ModelName
	}
	return v, nil
}
