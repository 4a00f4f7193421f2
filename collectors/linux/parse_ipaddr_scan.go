package linux

import (
	"encoding/json"
	"strings"

	"github.com/roceaudit/roceaudit/collectors/internal/jsonscan"
)

// decodeIPLinks reads ip -j's array into ipLinks: by a scan in place when the text is what
// ip prints, else by encoding/json, which then decides (errors included). An 8-rail host's
// `ip -d -j addr` is ~9 kB of which ipLink wants a tenth: the scan takes a quarter of
// encoding/json's time (BenchmarkDecodeIPLinks).
func decodeIPLinks(text string) ([]ipLink, error) {
	if links, ok := scanIPLinks(text); ok {
		return links, nil
	}
	var links []ipLink
	err := json.Unmarshal([]byte(text), &links)
	return links, err
}

// ipLinkKeys are the keys ipLink reads, in scanIPLink's order.
var ipLinkKeys = []string{"ifname", "mtu", "operstate", "address", "link", "master", "linkinfo", "addr_info"}

// scanIPLinks is the scan (see jsonscan.Scanner.Struct for what it declines; an mtu or id must be a plain
// int, a string without escapes).
func scanIPLinks(text string) ([]ipLink, bool) {
	sc := jsonscan.New(text)
	links := make([]ipLink, 0, strings.Count(text, `"ifname"`))
	ok := sc.Array(func() bool {
		var l ipLink
		if !sc.Struct(ipLinkKeys, func(i int) bool { return scanIPLink(sc, &l, i) }) {
			return false
		}
		links = append(links, l)
		return true
	}) && sc.End()
	return links, ok
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
