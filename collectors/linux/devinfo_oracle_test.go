package linux

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/topology"
)

// ParseIbvDevinfo and the devinfo excerpt as they were before the parse cut the excerpts'
// lines in its own pass (regexps and a map of seen keys included): the oracle.

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

var (
	// "PORT_ACTIVE (4)", "4096 (5)", "4X (2)", "25.0 Gbps (32)": a label and its numeric code.
	widthReRef = regexp.MustCompile(`^(\d+)X$`)
	speedReRef = regexp.MustCompile(`^([\d.]+) Gbps$`)
)

func parseIbvDevinfoRef(text string) (map[DevPort]topology.RDMAPort, error) {
	out := map[DevPort]topology.RDMAPort{}
	var cur *devinfoPortRef
	dev := ""
	finish := func() error {
		if cur == nil {
			return nil
		}
		p, err := cur.result()
		if err != nil {
			return err
		}
		out[cur.dp] = p
		cur = nil
		return nil
	}
	sawDevice := false
	n := -1
	for line := range strings.SplitSeq(text, "\n") {
		n++
		key, val, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok {
			continue // flag lists, "tag matching not supported", blank lines
		}
		val = strings.TrimSpace(val)
		switch key {
		case "hca_id":
			if err := finish(); err != nil {
				return nil, err
			}
			if val == "" {
				return nil, fmt.Errorf("ibv_devinfo line %d: hca_id without a device name", n+1)
			}
			dev, sawDevice = val, true
			continue
		case "port":
			if err := finish(); err != nil {
				return nil, err
			}
			if dev == "" {
				return nil, fmt.Errorf("ibv_devinfo line %d: port block before any hca_id", n+1)
			}
			p, err := strconv.Atoi(val)
			if err != nil || p < 1 || p > 255 {
				return nil, fmt.Errorf("ibv_devinfo line %d: port %q is not a port number", n+1, val)
			}
			cur = &devinfoPortRef{dp: DevPort{Dev: dev, Port: p}, seen: map[string]bool{}}
			continue
		}
		if cur == nil {
			continue // device-level attributes
		}
		if err := cur.set(key, val); err != nil {
			return nil, fmt.Errorf("ibv_devinfo %s line %d: %w", cur.dp, n+1, err)
		}
	}
	if err := finish(); err != nil {
		return nil, err
	}
	if !sawDevice && strings.TrimSpace(text) != "" {
		return nil, fmt.Errorf("ibv_devinfo: no hca_id block in the output (expected `hca_id:<TAB>DEV`)")
	}
	return out, nil
}

// devinfoPortRef accumulates one port block.
type devinfoPortRef struct {
	dp           DevPort
	p            topology.RDMAPort
	seen         map[string]bool
	width, speed float64
}

func (a *devinfoPortRef) set(key, val string) error {
	switch key {
	case "state", "phys_state", "max_mtu", "active_mtu", "active_width", "active_speed":
		label, ok := splitLabelCode(val)
		if !ok {
			return fmt.Errorf("%s %q: expected `LABEL (CODE)`", key, val)
		}
		switch key {
		case "state":
			a.p.State = label
		case "phys_state":
			a.p.PhysState = label
		case "max_mtu", "active_mtu":
			mtu, err := strconv.Atoi(label)
			if err != nil {
				// "invalid MTU (0)": keep the port, its MTU reads as 0 and checks will say so.
				mtu = 0
			}
			if key == "max_mtu" {
				a.p.MaxMTU = mtu
			} else {
				a.p.ActiveMTU = mtu
			}
		case "active_width":
			if w := widthReRef.FindStringSubmatch(label); w != nil {
				a.width, _ = strconv.ParseFloat(w[1], 64)
			}
		case "active_speed":
			if s := speedReRef.FindStringSubmatch(label); s != nil {
				a.speed, _ = strconv.ParseFloat(s[1], 64)
			}
		}
	case "link_layer":
		if val == "" {
			return fmt.Errorf("empty link_layer")
		}
		a.p.LinkLayer = val
	default:
		return nil
	}
	a.seen[key] = true
	return nil
}

func (a *devinfoPortRef) result() (topology.RDMAPort, error) {
	for _, k := range []string{"state", "max_mtu", "active_mtu", "link_layer"} {
		if !a.seen[k] {
			return topology.RDMAPort{}, fmt.Errorf("ibv_devinfo %s: port block has no %s line", a.dp, k)
		}
	}
	if a.width > 0 && a.speed > 0 {
		a.p.SpeedGbps = a.width * a.speed
	}
	return a.p, nil
}

// checkDevinfo compares parseIbvDevinfo with the oracle, and each port's excerpt (of every
// device named and ports 0..3 too) with devinfoExcerpt of the whole output.
func checkDevinfo(t *testing.T, text string) {
	t.Helper()
	got, lines, err := parseIbvDevinfo(text, true)
	want, wantErr := parseIbvDevinfoRef(text)
	if fmt.Sprint(err) != fmt.Sprint(wantErr) || !cmp.Equal(got, want) {
		t.Fatalf("parseIbvDevinfo(%q) = %v, %v; was %v, %v", text, got, err, want, wantErr)
	}
	if pub, pubErr := ParseIbvDevinfo(text); fmt.Sprint(pubErr) != fmt.Sprint(wantErr) || !cmp.Equal(pub, want) {
		t.Fatalf("ParseIbvDevinfo(%q) = %v, %v; was %v, %v", text, pub, pubErr, want, wantErr)
	}
	if err != nil {
		return
	}
	d := &discovery{ports: got, devLines: lines}
	dps := []DevPort{}
	for dp := range got {
		dps = append(dps, dp)
	}
	for _, l := range lines {
		for p := range 4 {
			dps = append(dps, DevPort{Dev: l.dev, Port: p})
		}
	}
	for _, dp := range dps {
		if g, w := d.devinfoExcerpt(dp), devinfoExcerpt(text, dp); g != w {
			t.Fatalf("%q: excerpt of %v\n got %q\nwant %q", text, dp, g, w)
		}
	}
}

func devinfoSeeds(tb testing.TB) []string {
	seeds := []string{"", "hca_id:\tx\n\t\tport:\t1\n\t\t\tstate:\t\t\t( (1)\n",
		"hca_id:\tx\n\tport:\t01\n\t\tstate:\tPORT_ACTIVE (4)\n\t\tmax_mtu:\t4096 (5)\n\t\tactive_mtu:\t4096 (5)\n\t\tlink_layer:\tEthernet\n" +
			"\t\tactive_width:\t4X (2)\n\t\tactive_speed:\t25.0 Gbps (32)\nhca_id:\ty\nhca_id:\tx\n\tport:\t2\n\t\tstate:\tPORT_DOWN (1)\n\t\tmax_mtu:\t1024 (3)\n" +
			"\t\tactive_mtu:\tinvalid MTU (0)\n\t\tlink_layer:\tInfiniBand\n\t\tactive_speed:\t1.2.3 Gbps (1)\n\t\tactive_width:\t12X (8)\n",
		"state:\tPORT_ACTIVE (4)\nhca_id:\t\u00a0z\r\n  port: 3\r\n state: A (1)\r\n max_mtu: 1 (1)\n active_mtu: 2 (2)\n link_layer: E\n"}
	for _, sc := range []string{"ofed-lossless", "dual-port", "inbox-dcb", "roce-lag", "ipv6-gids-no-rdma"} {
		b, err := os.ReadFile(filepath.Join(fixtureRoot, sc, "ibv_devinfo"))
		if err != nil {
			tb.Fatal(err)
		}
		seeds = append(seeds, string(b))
	}
	return append(seeds, loadTranscript(tb)[CmdIbvDevinfo].Stdout)
}

// go test runs the seeds (the recorded outputs) as a test; to fuzz:
// go test -run XXX -fuzz FuzzDevinfo -fuzztime 60s -fuzzminimizetime 2s ./collectors/linux
func FuzzDevinfo(f *testing.F) {
	minis := textMinis(1, append([]string{loadTranscript(f)[CmdIbvDevinfo].Stdout}, fixtureFiles(f, "ibv_devinfo")...)...)
	addSeeds(f, append(minis, devinfoSeeds(f)...)...)
	f.Fuzz(checkDevinfo)
}
