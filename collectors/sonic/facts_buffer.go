package sonic

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/topology"
)

// PortBuffer lists the port's lossless priority groups: BUFFER_PG|<port>|<pgs> entries whose
// profile has an xoff threshold (traditional model), or is "NULL" (the dynamic buffer model
// computes a lossless profile for it). Profile names the lossless profiles, comma-separated;
// PGs says what each group binds. A group whose profile cannot be resolved is listed in
// Unreadable, not an error: it says nothing of the other groups.
func PortBuffer(db *ConfigDB, port string) (topology.Buffer, string, error) {
	if _, ok := db.Row("PORT", port); !ok {
		return topology.Buffer{}, "", fmt.Errorf("%s is not in the CONFIG_DB PORT table", port)
	}
	keys, err := db.sortedPortKeys("BUFFER_PG", port)
	if err != nil {
		return topology.Buffer{}, "", fmt.Errorf("BUFFER_PG table: %w", err)
	}
	b := topology.Buffer{LosslessPGs: []int{}, PGs: map[int]string{}}
	var profiles []string
	// the excerpt, "BUFFER_PG|<key>: profile=<ref> (<what>)" per key joined by "; ", in
	// one buffer
	var stack [512]byte
	ex := stack[:0]
	for _, k := range keys {
		key, ref := k.key, k.row["profile"]
		name := Ref(ref)
		lossless, unreadable, what := false, false, ""
		switch {
		case name == "":
			unreadable, what = true, fmt.Sprintf("BUFFER_PG|%s has no profile", key)
		case name == "NULL":
			lossless, what, name = true, "NULL: lossless, computed by the dynamic buffer model", "NULL (dynamic)"
		default:
			p := sharedValue(db, sharedKey{siteBufferWhat, name, 0}, func() bufferProfile {
				prof, ok := db.Row("BUFFER_PROFILE", name)
				switch x, hasXoff := prof["xoff"]; {
				case !ok:
					return bufferProfile{}
				case hasXoff:
					return bufferProfile{found: true, lossless: true, what: name + ": lossless, xoff=" + strconv.Quote(x)}
				default:
					return bufferProfile{found: true, what: name + ": lossy, no xoff"}
				}
			})
			if !p.found {
				unreadable, what = true, fmt.Sprintf("BUFFER_PG|%s refers to BUFFER_PROFILE|%s, which is not in CONFIG_DB", key, name)
			} else {
				lossless, what = p.lossless, p.what
			}
		}
		if len(ex) > 0 {
			ex = append(ex, "; "...)
		}
		ex = append(append(append(ex, "BUFFER_PG|"...), key...), ": profile="...)
		ex = strconv.AppendQuote(ex, ref)
		ex = append(append(append(ex, " ("...), what...), ')')
		for _, pg := range k.ids {
			b.PGs[pg] = what
			switch {
			case unreadable:
				b.Unreadable = append(b.Unreadable, pg)
			case lossless && !slices.Contains(b.LosslessPGs, pg):
				b.LosslessPGs = append(b.LosslessPGs, pg)
			}
		}
		if lossless && !slices.Contains(profiles, name) {
			profiles = append(profiles, name)
		}
	}
	slices.Sort(b.LosslessPGs)
	slices.Sort(b.Unreadable)
	b.Profile = strings.Join(profiles, ",")
	if len(keys) == 0 {
		return b, fmt.Sprintf("no BUFFER_PG|%s|<pg> entry", port), nil
	}
	return b, string(ex), nil
}

// bufferProfile is what PortBuffer says of a BUFFER_PROFILE.
type bufferProfile struct {
	found, lossless bool
	what            string
}
