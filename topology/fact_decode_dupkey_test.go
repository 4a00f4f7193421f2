package topology

import (
	"encoding/json"
	"strings"
	"testing"
)

// A key given twice merges into its first value, as encoding/json does; the facts decoded
// under the first must not reach the next device of the platform with the merge in them.
// Such a line (never written by roceaudit) is left to encoding/json, and the next device
// reads as encoding/json reads it.
func TestRepeatedKeyDoesNotLeakIntoTheNextDevice(t *testing.T) {
	dev := &Device{Name: "h1", Platform: "linux", Role: RoleHost, Reachable: true,
		Host: &HostFacts{NCCLGIDIndex: Known(3, Evidence{Command: "x"})}}
	b, err := json.Marshal(dev)
	if err != nil {
		t.Fatal(err)
	}
	line := string(b)
	i := strings.Index(line, `"nccl_gid_index":`)
	j := i + strings.Index(line[i:], `}}`) + 2
	host := strings.Index(line, `"host":`)
	hostEnd := strings.LastIndex(line, `}`)
	for name, dup := range map[string]string{
		"a fact":         line[:j] + `,"nccl_gid_index":{"value":5}` + line[j:],
		"the host facts": line[:hostEnd] + `,"host":{"nccl_gid_index":{"value":5}}` + line[hostEnd:],
	} {
		if host < 0 || i < 0 {
			t.Fatalf("test line lacks its keys: %s", line)
		}
		dec := newPlanDecoder(ReadOptions{})
		if decodeBothWith(t, dec, dup, ReadOptions{}) {
			t.Errorf("%s given twice: the planned decoder read the line instead of encoding/json", name)
		}
		next := strings.Replace(line, `"h1"`, `"h2"`, 1)
		if !decodeBothWith(t, dec, next, ReadOptions{}) {
			t.Fatalf("after %s given twice, the next device fell back", name)
		}
	}
}
