package linux

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// Excerpts are the few verbatim lines that decided a fact, so a report can show its evidence
// without the whole transcript.

// linesWhere keeps the lines of text for which keep returns true.
func linesWhere(text string, keep func(line string) bool) string {
	var out []string
	// Cut line by line rather than Split: the GID dump is 1,500 lines a host, read per port.
	for more := true; more; {
		var l string
		l, text, more = strings.Cut(text, "\n")
		if keep(l) && strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// ipObjects are the netdev objects of `ip -j addr`, each by its field names; nil when the
// text is not a JSON array of objects.
func ipObjects(jsonText string) []map[string]json.RawMessage {
	var objs []map[string]json.RawMessage
	if json.Unmarshal([]byte(jsonText), &objs) != nil {
		return nil
	}
	return objs
}

// ipFieldsExcerpt is the excerpt of one netdev object whose fields get finds.
func ipFieldsExcerpt(get func(k string) (json.RawMessage, bool)) string {
	var b strings.Builder
	b.WriteString("{")
	first := true
	for _, k := range ipExcerptKeys {
		v, ok := get(k)
		if !ok {
			continue
		}
		if k == "addr_info" {
			v = trimAddrInfo(v)
		}
		var c bytes.Buffer
		if json.Compact(&c, v) != nil {
			continue
		}
		if !first {
			b.WriteString(",")
		}
		first = false
		b.WriteString(strconv.Quote(k) + ":" + c.String())
	}
	b.WriteString("}")
	return b.String()
}

// addrKeys are the fields of an address an ip excerpt keeps, in the order it shows them.
var addrKeys = [...]string{"family", "local", "prefixlen", "scope"}

// trimAddrInfo keeps family, local, prefixlen and scope of each address: scanned as the
// netdev objects are (decoding it was a third of an 8-rail host's ip excerpts), decoded
// when the scan declines it.
func trimAddrInfo(raw json.RawMessage) json.RawMessage {
	var parts []string
	if scanObjects(string(raw), addrKeys[:], func(vals []string) { parts = append(parts, addrPart(vals)) }) {
		return json.RawMessage("[" + strings.Join(parts, ",") + "]")
	}
	return decodeAddrInfo(raw)
}

// decodeAddrInfo is trimAddrInfo by encoding/json: the fallback, and the scan's reference.
func decodeAddrInfo(raw json.RawMessage) json.RawMessage {
	var addrs []map[string]json.RawMessage
	if json.Unmarshal(raw, &addrs) != nil {
		return raw
	}
	parts := make([]string, 0, len(addrs))
	vals := make([]string, len(addrKeys))
	for _, a := range addrs {
		for k, key := range addrKeys {
			vals[k] = string(a[key])
		}
		parts = append(parts, addrPart(vals))
	}
	return json.RawMessage("[" + strings.Join(parts, ",") + "]")
}

// addrPart is one address of the excerpt from the raw values of addrKeys ("" when absent).
func addrPart(vals []string) string {
	var b strings.Builder
	b.WriteByte('{')
	first := true
	for k, v := range vals {
		if v == "" {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.WriteString(strconv.Quote(addrKeys[k]))
		b.WriteByte(':')
		b.WriteString(v)
	}
	b.WriteByte('}')
	return b.String()
}

// devinfoExcerpt is the hca_id line, the port line and the deciding lines of one port block.
func devinfoExcerpt(text string, dp DevPort) string {
	var out []string
	inDev, inPort := false, false
	for l := range strings.SplitSeq(text, "\n") {
		key, val, ok := strings.Cut(strings.TrimSpace(l), ":")
		if !ok {
			continue
		}
		val = strings.TrimSpace(val)
		switch key {
		case "hca_id":
			inDev, inPort = val == dp.Dev, false
			if inDev {
				out = append(out, l)
			}
		case "port":
			inPort = inDev && val == strconv.Itoa(dp.Port)
			if inPort {
				out = append(out, l)
			}
		case "state", "phys_state", "max_mtu", "active_mtu", "link_layer", "active_width", "active_speed":
			if inPort {
				out = append(out, l)
			}
		}
	}
	return strings.Join(out, "\n")
}

// gidLineKept is a GID dump line of the port at prefix whose index is one of indexes.
func gidLineKept(l, prefix string, indexes map[int]bool) bool {
	if !strings.HasPrefix(l, prefix) { // the other port's lines, cheaply
		return false
	}
	path, _, _ := strings.Cut(l, ":")
	if !strings.HasPrefix(path, prefix) {
		return false
	}
	idx, err := strconv.Atoi(path[strings.LastIndexByte(path, '/')+1:])
	return err == nil && indexes[idx]
}

// qosExcerpt keeps the mlnx_qos lines that decide trust, PFC, the DCBX owner and the cable
// length the NIC sizes its headroom for.
func qosExcerpt(text string) string {
	return linesWhere(text, func(l string) bool {
		t := strings.TrimSpace(l)
		return strings.HasPrefix(t, "DCBX mode:") || strings.HasPrefix(t, "Priority trust state:") || strings.HasPrefix(t, "Cable len:") ||
			strings.HasPrefix(t, "priority ") || strings.HasPrefix(t, "enabled ") || strings.HasPrefix(t, "prio:") ||
			strings.Contains(t, "WARNING")
	})
}

// counterWords are what a counter's name holds when it matters for a lossless diagnosis.
var counterWords = [...]string{"pause", "discard", "cnp", "ecn", "out_of_sequence", "retrans", "timeout"}

// counterWordAt is 1 + the index in counterWords of the word starting with each byte, 0 for
// none (the words' first letters differ).
var counterWordAt = func() (t [256]uint8) {
	for i, w := range counterWords {
		if t[w[0]] != 0 {
			panic("two counter words start with " + w[:1])
		}
		t[w[0]] = uint8(i + 1)
	}
	return t
}()

// hasCounterWord reports whether s holds a counter word, in one pass that looks further only
// at a word's first two letters: the hw_counters paths are long and full of the words' first
// letters, and trying a whole word at each of them was 8% of an 8-rail host's collection
// instructions. The counter excerpt (the lines holding a word, as linesWhere keeps them) is
// cut by the counter parsers as they read each line, which search a row's name only.
func hasCounterWord(s string) bool {
	for i := 0; i < len(s); i++ {
		k := counterWordAt[s[i]]
		if k == 0 {
			continue
		}
		w := counterWords[k-1]
		if len(s)-i >= len(w) && s[i+1] == w[1] && s[i:i+len(w)] == w {
			return true
		}
	}
	return false
}
