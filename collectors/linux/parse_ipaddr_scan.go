package linux

import (
	"encoding/json"
	"strings"

	"github.com/roceaudit/roceaudit/collectors/internal/jsonscan"
)

// decodeIPLinks reads ip -j's array into ipLinks: by a scan in place when the text is what
// ip prints, else by encoding/json, which then decides (errors included). An 8-rail host's
// `ip -d -j addr` is ~9 kB of which ipLink wants a tenth: the scan takes a quarter of
// encoding/json's time (BenchmarkDecodeIPLinks). fields are the excerpts' ipFields of the
// same objects when the scan read the text (nil when encoding/json did).
func decodeIPLinks(text string) (_ []ipLink, fields []ipFields, _ error) {
	if links, fields, ok := scanIPLinks(text); ok {
		return links, fields, nil
	}
	var links []ipLink
	err := json.Unmarshal([]byte(text), &links)
	return links, nil, err
}

// ipLinkKeys are the keys ipLink reads, in scanIPLink's order.
var ipLinkKeys = []string{"ifname", "mtu", "operstate", "address", "link", "master", "linkinfo", "addr_info"}

// ipExcerptField is the ipExcerptKeys index of each of ipLinkKeys (-1: not in the excerpt).
var ipExcerptField = func() (idx [8]int) {
	for i, k := range ipLinkKeys {
		idx[i] = -1
		for j, e := range ipExcerptKeys {
			if k == e {
				idx[i] = j
			}
		}
	}
	return idx
}()

// scanIPLinks is the scan (see jsonscan.Scanner.Struct for what it declines; an mtu or id must be a plain
// int, a string without escapes). It keeps each object's excerpt fields as it reads them:
// the excerpts' own scan of the text (scanIPObjects) was a third of the ip JSON's cost.
// Where Struct reads a text, each ipExcerptKeys key is there at most once and matched
// exactly, as in the map encoding/json decodes (decodeIPFields), and its raw value is the
// value's text.
func scanIPLinks(text string) ([]ipLink, []ipFields, bool) {
	sc := jsonscan.New(text)
	n := strings.Count(text, `"ifname"`)
	links := make([]ipLink, 0, n)
	fields := make([]ipFields, 0, n)
	ok := sc.Array(func() bool {
		var l ipLink
		var f ipFields
		if !sc.Struct(ipLinkKeys, func(i int) bool {
			sc.Peek()
			start := sc.Offset()
			if !scanIPLink(sc, &l, i) {
				return false
			}
			if k := ipExcerptField[i]; k >= 0 {
				f.v[k], f.ok[k] = text[start:sc.Offset()], true
			}
			return true
		}) {
			return false
		}
		links = append(links, l)
		fields = append(fields, f)
		return true
	}) && sc.End()
	return links, fields, ok
}

func scanIPLink(sc *jsonscan.Scanner, l *ipLink, field int) bool {
	switch field {
	case 0:
		return scanStr(sc, &l.IfName)
	case 1:
		n, ok := scanInt(sc)
		l.MTU = &n
		return ok
	case 2:
		return scanStr(sc, &l.OperState)
	case 3:
		return scanStr(sc, &l.Address)
	case 4:
		return scanStr(sc, &l.Link)
	case 5:
		return scanStr(sc, &l.Master)
	case 6:
		l.LinkInfo = new(ipLinkInfo)
		return sc.Struct([]string{"info_kind", "info_data"}, func(i int) bool {
			if i == 0 {
				return scanStr(sc, &l.LinkInfo.Kind)
			}
			l.LinkInfo.Data = new(ipLinkData)
			return sc.Struct([]string{"id"}, func(int) bool {
				n, ok := scanInt(sc)
				l.LinkInfo.Data.ID = &n
				return ok
			})
		})
	default:
		var ok bool
		l.AddrInfo, ok = scanList(sc, func(a *ipAddrInfo) bool {
			return sc.Struct([]string{"family", "local"}, func(i int) bool {
				if i == 0 {
					return scanStr(sc, &a.Family)
				}
				return scanStr(sc, &a.Local)
			})
		})
		return ok
	}
}
