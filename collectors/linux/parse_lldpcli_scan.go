package linux

import (
	"encoding/json"

	"github.com/roceaudit/roceaudit/collectors/internal/jsonscan"
)

// decodeLLDPJSON0 reads lldpcli's json0 document: by a scan in place when it is what lldpcli
// prints, else by encoding/json, which then decides (errors included). A host's neighbours
// are ~10 kB of lists of {"value": ...} objects, most of them members lldpJSON0 skips.
func decodeLLDPJSON0(text string) (lldpJSON0, error) {
	if doc, ok := scanLLDPJSON0(text); ok {
		return doc, nil
	}
	var doc lldpJSON0
	err := json.Unmarshal([]byte(text), &doc)
	return doc, err
}

// scanLLDPJSON0 is the scan (see jsonscan.Scanner.Struct for what it declines).
func scanLLDPJSON0(text string) (lldpJSON0, bool) {
	sc := jsonscan.New(text)
	var doc lldpJSON0
	ok := sc.Struct([]string{"lldp"}, func(int) bool {
		agents, ok := scanList(sc, func(a *lldpAgent) bool {
			return sc.Struct([]string{"interface"}, func(int) bool {
				var ok bool
				a.Interface, ok = scanList(sc, func(it *lldpInterface) bool { return scanLLDPInterface(sc, it) })
				return ok
			})
		})
		doc.LLDP = &agents
		return ok
	}) && sc.End()
	return doc, ok
}

func scanLLDPInterface(sc *jsonscan.Scanner, it *lldpInterface) bool {
	return sc.Struct([]string{"name", "chassis", "port"}, func(i int) bool {
		var ok bool
		switch i {
		case 0:
			return scanStr(sc, &it.Name)
		case 1:
			it.Chassis, ok = scanList(sc, func(c *lldpChassis) bool {
				return sc.Struct([]string{"id", "name", "mgmt-ip"}, func(i int) bool {
					switch i {
					case 0:
						c.ID, ok = scanTyped(sc)
					case 1:
						c.Name, ok = scanValues(sc)
					default:
						c.MgmtIP, ok = scanValues(sc)
					}
					return ok
				})
			})
		default:
			it.Port, ok = scanList(sc, func(p *lldpPort) bool {
				return sc.Struct([]string{"id", "descr"}, func(i int) bool {
					if i == 0 {
						p.ID, ok = scanTyped(sc)
					} else {
						p.Descr, ok = scanValues(sc)
					}
					return ok
				})
			})
		}
		return ok
	})
}

func scanValues(sc *jsonscan.Scanner) ([]lldpValue, bool) {
	return scanList(sc, func(v *lldpValue) bool {
		return sc.Struct([]string{"value"}, func(int) bool { return scanStr(sc, &v.Value) })
	})
}

func scanTyped(sc *jsonscan.Scanner) ([]lldpTyped, bool) {
	return scanList(sc, func(v *lldpTyped) bool {
		return sc.Struct([]string{"type", "value"}, func(i int) bool {
			if i == 0 {
				return scanStr(sc, &v.Type)
			}
			return scanStr(sc, &v.Value)
		})
	})
}
