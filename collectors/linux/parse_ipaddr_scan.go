package linux

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/collectors/internal/jsonscan"
)

// decodeIPLinks reads ip -j's array into ipLinks: by a scan in place when the text is what
// ip prints, else by encoding/json, which then decides (errors included). An 8-rail host's
// `ip -d -j addr` is ~9 kB of which ipLink wants a tenth; encoding/json's reflection over it
// was ~0.2 ms a host.
func decodeIPLinks(text string) ([]ipLink, error) {
	if links, ok := scanIPLinks(text); ok {
		return links, nil
	}
	var links []ipLink
	err := json.Unmarshal([]byte(text), &links)
	return links, err
}

// scanIPLinks is the scan: false for anything encoding/json might read otherwise — a null
// or a value of another type where ipLink has a field, a key naming a field in other case
// (encoding/json matches keys case-insensitively), a repeated field, an escape in a string
// it keeps, an mtu or id that is not a plain int.
func scanIPLinks(text string) ([]ipLink, bool) {
	sc := jsonscan.New(text)
	links := make([]ipLink, 0, strings.Count(text, `"ifname"`))
	ok := sc.Array(func() bool {
		var l ipLink
		seen := 0
		if !sc.Object(func(key string) bool { return scanIPLinkField(sc, &l, key, &seen) }) {
			return false
		}
		links = append(links, l)
		return true
	}) && sc.End()
	return links, ok
}

// ipLinkKeys are the keys ipLink reads, each a bit of scanIPLinkField's seen.
var ipLinkKeys = [...]string{"ifname", "mtu", "operstate", "address", "link", "master", "linkinfo", "addr_info"}

func scanIPLinkField(sc *jsonscan.Scanner, l *ipLink, key string, seen *int) bool {
	i := fieldIndex(ipLinkKeys[:], key)
	if i == -2 {
		return false // another case of a field's key
	}
	if i < 0 {
		return sc.Skip()
	}
	if *seen&(1<<i) != 0 {
		return false
	}
	*seen |= 1 << i
	var ok bool
	switch key {
	case "ifname":
		l.IfName, ok = sc.Str()
	case "mtu":
		var n int
		n, ok = scanInt(sc)
		l.MTU = &n
	case "operstate":
		l.OperState, ok = sc.Str()
	case "address":
		l.Address, ok = sc.Str()
	case "link":
		l.Link, ok = sc.Str()
	case "master":
		l.Master, ok = sc.Str()
	case "linkinfo":
		ok = scanLinkInfo(sc, l)
	case "addr_info":
		ok = scanAddrInfo(sc, l)
	}
	return ok
}

func scanLinkInfo(sc *jsonscan.Scanner, l *ipLink) bool {
	l.LinkInfo = &struct {
		Kind string `json:"info_kind"`
		Data *struct {
			ID *int `json:"id"`
		} `json:"info_data"`
	}{}
	seen := 0
	return sc.Object(func(key string) bool {
		switch i := fieldIndex([]string{"info_kind", "info_data"}, key); {
		case i == -2 || i >= 0 && seen&(1<<i) != 0:
			return false
		case i == 0:
			seen |= 1
			var ok bool
			l.LinkInfo.Kind, ok = sc.Str()
			return ok
		case i == 1:
			seen |= 2
			l.LinkInfo.Data = &struct {
				ID *int `json:"id"`
			}{}
			idSeen := false
			return sc.Object(func(key string) bool {
				switch j := fieldIndex([]string{"id"}, key); {
				case j == -2 || j == 0 && idSeen:
					return false
				case j == 0:
					idSeen = true
					n, ok := scanInt(sc)
					l.LinkInfo.Data.ID = &n
					return ok
				}
				return sc.Skip()
			})
		}
		return sc.Skip()
	})
}

func scanAddrInfo(sc *jsonscan.Scanner, l *ipLink) bool {
	l.AddrInfo = []struct {
		Family string `json:"family"`
		Local  string `json:"local"`
	}{}
	return sc.Array(func() bool {
		var a struct {
			Family string `json:"family"`
			Local  string `json:"local"`
		}
		seen := 0
		if !sc.Object(func(key string) bool {
			i := fieldIndex([]string{"family", "local"}, key)
			switch {
			case i == -2 || i >= 0 && seen&(1<<i) != 0:
				return false
			case i == 0:
				seen |= 1
				var ok bool
				a.Family, ok = sc.Str()
				return ok
			case i == 1:
				seen |= 2
				var ok bool
				a.Local, ok = sc.Str()
				return ok
			}
			return sc.Skip()
		}) {
			return false
		}
		l.AddrInfo = append(l.AddrInfo, a)
		return true
	})
}

// fieldIndex is key's index in keys, -1 for none, -2 for a key equal to one of them only
// when case is ignored (encoding/json would fill that field).
func fieldIndex(keys []string, key string) int {
	for i, k := range keys {
		if k == key {
			return i
		}
	}
	ascii := true
	for i := range len(key) {
		if key[i] >= 0x80 {
			ascii = false
			break
		}
	}
	for _, k := range keys {
		// An ASCII key folds only to one of its own length (ip's keys all are); others, such
		// as the Kelvin sign, may fold to a shorter one.
		if (!ascii || len(k) == len(key)) && strings.EqualFold(k, key) {
			return -2
		}
	}
	return -1
}

// scanInt reads a number token encoding/json stores in an int unchanged: digits with an
// optional minus, in range.
func scanInt(sc *jsonscan.Scanner) (int, bool) {
	tok, ok := sc.Number()
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(tok)
	return n, err == nil && !strings.HasPrefix(tok, "+")
}
