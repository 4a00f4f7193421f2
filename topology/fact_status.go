package topology

import "fmt"

// FactStatus says how a fact was obtained. The zero value is FactUnknown, so a fact no
// collector filled in is never taken for a reading.
type FactStatus uint8

// Fact statuses.
const (
	FactUnknown     FactStatus = iota // could not be read; Source.Error says why
	FactKnown                         // read from the device
	FactUnsupported                   // the platform cannot express it; Reason says so
	FactInferred                      // the configuration is silent; Reason names the default assumed
)

var factStatusNames = [...]string{
	FactUnknown:     "unknown",
	FactKnown:       "known",
	FactUnsupported: "unsupported",
	FactInferred:    "inferred",
}

func (s FactStatus) String() string {
	if int(s) < len(factStatusNames) {
		return factStatusNames[s]
	}
	return fmt.Sprintf("FactStatus(%d)", uint8(s))
}

// MarshalText writes the status by name, so a snapshot explains itself.
func (s FactStatus) MarshalText() ([]byte, error) {
	if int(s) >= len(factStatusNames) {
		return nil, fmt.Errorf("fact status %d is not one of %v", uint8(s), factStatusNames)
	}
	return []byte(factStatusNames[s]), nil
}

// UnmarshalText reads a status name; any other is an error, not a silent unknown.
func (s *FactStatus) UnmarshalText(b []byte) error {
	for i, n := range factStatusNames {
		if n == string(b) {
			*s = FactStatus(i)
			return nil
		}
	}
	return fmt.Errorf("fact status %q is not one of %v", b, factStatusNames)
}
