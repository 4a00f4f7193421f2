package nxos

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// rows decodes a ROW_* member, which NX-OS prints as an object for one row and as an array
// for several. A missing member is zero rows.
func rows[T any](raw json.RawMessage) ([]T, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, nil
	}
	if raw[0] == '[' {
		var out []T
		err := json.Unmarshal(raw, &out)
		return out, err
	}
	var one T
	if err := json.Unmarshal(raw, &one); err != nil {
		return nil, err
	}
	return []T{one}, nil
}

// body removes the NX-API envelope {"output": {"body": ...}} when present; over the SSH CLI
// the body comes bare.
func body(out string) (json.RawMessage, error) {
	var env struct {
		Output *struct {
			Body json.RawMessage `json:"body"`
		} `json:"output"`
	}
	if err := json.Unmarshal([]byte(out), &env); err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	if env.Output != nil && len(env.Output.Body) > 0 {
		return env.Output.Body, nil
	}
	return json.RawMessage(out), nil
}

// num is a number NX-OS prints either as a JSON number or as a string of digits.
type num struct {
	V   int64
	Set bool
}

func (n *num) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(bytes.TrimSpace(b)), `"`)
	if s == "null" {
		return nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("%s is not a whole number", b)
	}
	n.V, n.Set = v, true
	return nil
}
