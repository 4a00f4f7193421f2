package linuxhost

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// renderLLDPNeighbors renders `lldpcli -f json0 show neighbors` as lldpd 1.0.x prints it:
// display.c at DISPLAY_NORMAL (display_interface, display_chassis, display_port) writing
// through json_writer.c without the clean-up of `-f json`. Interfaces come in ifindex order,
// one entry per neighbour; a netdev without carrier has none. The caller holds the read lock.
func (h *Host) renderLLDPNeighbors() string {
	w := newJSON0()
	w.start("lldp")
	rids := map[string]int{} // lldpd numbers remote chassis in the order it learns them
	for _, nd := range h.Netdevs {
		if nd.Kind == "loopback" || nd.OperState() != "UP" {
			continue
		}
		for _, n := range h.LLDPNeighbors[nd.Name] {
			if _, ok := rids[n.ChassisID]; !ok {
				rids[n.ChassisID] = len(rids) + 1
			}
			w.start("interface")
			w.attr("name", nd.Name)
			w.attr("via", "LLDP")
			w.attr("rid", strconv.Itoa(rids[n.ChassisID]))
			w.attr("age", lldpAge(n.Age))

			w.start("chassis")
			w.start("id")
			w.attr("type", n.ChassisIDType)
			w.data(n.ChassisID)
			w.end()
			w.dataTag("name", n.SysName)
			w.dataTag("descr", n.SysDescr)
			w.dataTag("mgmt-ip", n.MgmtIP)
			for _, c := range n.Capabilities {
				w.start("capability")
				w.attr("type", c.Type)
				w.attr("enabled", onOff(c.Enabled))
				w.end()
			}
			w.end()

			w.start("port")
			w.start("id")
			w.attr("type", n.PortIDType)
			w.data(n.PortID)
			w.end()
			w.dataTag("descr", n.PortDescr)
			if n.TTL > 0 {
				w.dataTag("ttl", strconv.Itoa(n.TTL))
			}
			w.end()

			w.end() // interface
		}
	}
	w.end()
	return w.dump()
}

// lldpAge is display.c display_age: "%d day%s, %02d:%02d:%02d", plural past one day.
func lldpAge(d time.Duration) string {
	s := int(d / time.Second)
	days := s / 86400
	plural := ""
	if days > 1 {
		plural = "s"
	}
	return fmt.Sprintf("%d day%s, %02d:%02d:%02d", days, plural, s/3600%24, s/60%60, s%60)
}

// json0 is lldpd's json_writer.c: tags become lists of objects (a tag started twice in one
// object appends to its list), attributes become strings ("yes"/"on" and "no"/"off" become
// booleans), data becomes a "value" key.
type json0 struct {
	root, cur *jnode
}

type jnode struct {
	key      string
	kind     byte // 's' string, 'b' bool, 'a' array, 'o' object
	str      string
	boolean  bool
	parent   *jnode
	children []*jnode
}

func newJSON0() *json0 {
	root := &jnode{kind: 'o'}
	return &json0{root: root, cur: root}
}

func (w *json0) add(n *jnode) *jnode {
	n.parent = w.cur
	w.cur.children = append(w.cur.children, n)
	return n
}

func (w *json0) start(tag string) {
	var list *jnode
	for _, c := range w.cur.children {
		if c.key == tag {
			list = c
			break
		}
	}
	if list == nil {
		list = w.add(&jnode{key: tag, kind: 'a'})
	}
	obj := &jnode{kind: 'o', parent: list}
	list.children = append(list.children, obj)
	w.cur = obj
}

func (w *json0) attr(tag, value string) {
	switch value {
	case "yes", "on":
		w.add(&jnode{key: tag, kind: 'b', boolean: true})
	case "no", "off":
		w.add(&jnode{key: tag, kind: 'b'})
	default:
		w.add(&jnode{key: tag, kind: 's', str: value})
	}
}

func (w *json0) data(value string) { w.add(&jnode{key: "value", kind: 's', str: value}) }

// dataTag is tag_datatag: nothing at all for a value lldpd does not have.
func (w *json0) dataTag(tag, value string) {
	if value == "" {
		return
	}
	w.start(tag)
	w.data(value)
	w.end()
}

// end closes the current object: back to the object that holds its list.
func (w *json0) end() { w.cur = w.cur.parent.parent }

// dump is json_element_dump of the root, then json_dump's and json_end's newlines.
func (w *json0) dump() string {
	var b strings.Builder
	dumpNode(&b, w.root, 0)
	b.WriteString("\n\n")
	return b.String()
}

func dumpNode(b *strings.Builder, n *jnode, indent int) {
	switch n.kind {
	case 's':
		b.WriteString(strconv.Quote(n.str)) // lab values are printable ASCII: the same escapes
	case 'b':
		b.WriteString(strconv.FormatBool(n.boolean))
	default:
		open, closing := "{", "}"
		if n.kind == 'a' {
			open, closing = "[", "]"
		}
		pad := strings.Repeat(" ", indent+2)
		b.WriteString(open + "\n" + pad)
		for i, c := range n.children {
			if i > 0 {
				b.WriteString(",\n" + pad)
			}
			if n.kind == 'o' {
				b.WriteString(`"` + c.key + `": `)
			}
			dumpNode(b, c, indent+2)
		}
		b.WriteString("\n" + strings.Repeat(" ", indent) + closing)
	}
}
