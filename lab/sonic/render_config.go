package sonic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// showRunningConfig renders `show runningconfiguration all`: CONFIG_DB as sonic-cfggen
// --print-data prints it (4-space indented JSON, keys in natural order, every value a string)
// followed by the empty "bgpraw" of a switch without FRR configuration.
func showRunningConfig(sw *switchstate.Switch) string {
	db := configDB(sw)
	var b strings.Builder
	b.WriteString("{\n")
	names := sortedKeys(db)
	for _, table := range names {
		fmt.Fprintf(&b, "    %s: {", quote(table))
		keys := sortedKeys(db[table])
		for i, key := range keys {
			if i == 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "        %s: {", quote(key))
			fields := sortedKeys(db[table][key])
			for j, f := range fields {
				if j == 0 {
					b.WriteString("\n")
				}
				fmt.Fprintf(&b, "            %s: %s", quote(f), quote(db[table][key][f]))
				if j < len(fields)-1 {
					b.WriteString(",")
				}
				b.WriteString("\n")
			}
			if len(fields) > 0 {
				b.WriteString("        ")
			}
			b.WriteString("}")
			if i < len(keys)-1 {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		if len(keys) > 0 {
			b.WriteString("    ")
		}
		b.WriteString("},\n")
	}
	// bgpraw is FRR's own running config, as one string.
	m := sw.ManagementOf()
	frr := "!\nrouter bgp 65100\n neighbor 10.255.1.1 remote-as 65101\n neighbor 10.255.1.1 password " + m.BGPPassword + "\n!\n"
	fmt.Fprintf(&b, "    \"bgpraw\": %s\n}\n", quote(frr))
	return b.String()
}

// quote is a JSON string as Python's json.dumps writes it (no HTML escaping).
func quote(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		// A Go string always encodes.
		panic(fmt.Sprintf("sonic: encode %q: %v", s, err))
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool { return switchstate.NaturalLess(ks[i], ks[j]) })
	return ks
}
