package labcheck

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/platforms"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/lab"
	"github.com/roceaudit/roceaudit/lab/labtest"
	"github.com/roceaudit/roceaudit/lab/linuxhost"
)

// collectorCommands is every command template the platform's collector can send: its
// allowlist and its plans for a device with no interfaces given, without and with sudo
// (placeholders left in).
func collectorCommands(t *testing.T, p *collectors.Descriptor) []string {
	t.Helper()
	out := p.Allowlist().Templates()
	plain, sudo := inventory.DeviceSpec{Name: "dev"}, inventory.DeviceSpec{Name: "dev"}
	sudo.Conn.Sudo = true
	for _, c := range append(p.Plan(plain), p.Plan(sudo)...) {
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// emulated is the lab device each platform's commands go to, and the names of its that fill
// the placeholders. gpu05 is the perftest server's host for gpu01's client commands.
type emulated struct {
	name string
	vars map[string]string
}

var emulatedBy = map[string]emulated{
	"linux":   {"gpu01", map[string]string{"{if}": linuxhost.Port0, "{dev}": "mlx5_0", "{port}": "1", "{ip}": "10.1.0.5"}},
	"sonic":   {"leaf1", nil},
	"cumulus": {"leaf2", map[string]string{"{if}": "swp1"}},
	"eos":     {"leaf3", nil},
	"nxos":    {"leaf4", nil},
}

// device is one registered platform and the lab device that emulates it.
type device struct {
	platform *collectors.Descriptor
	emulated
}

// devices is every registered platform with its emulated device: a platform the lab does not
// emulate fails the test, so a newly registered NOS cannot go untested.
func devices(t *testing.T) []device {
	t.Helper()
	reg := platforms.Registry()
	var out []device
	for _, name := range reg.Names() {
		e, ok := emulatedBy[name]
		if !ok {
			t.Errorf("platform %q has no emulated device in the lab: add one to emulatedBy", name)
			continue
		}
		p, _ := reg.Get(name)
		out = append(out, device{p, e})
	}
	for name := range emulatedBy {
		if _, ok := reg.Get(name); !ok {
			t.Errorf("emulatedBy names %q, which is not a registered platform", name)
		}
	}
	return out
}

// numbers fill a {n} by the word before it: plausible perftest values, the port for ss.
var numbers = map[string]string{"timeout": "25", "-x": "3", "--tclass": "106", "-D": "1", "-p": "18600", "-s": "65536", "-n": "100", "=": "18600"}

// fill turns a template into the command line sent to the device.
func fill(tmpl string, vars map[string]string) string {
	words := strings.Fields(tmpl)
	for i, w := range words {
		for ph, v := range vars {
			w = strings.ReplaceAll(w, ph, v)
		}
		if strings.Contains(w, "{n}") {
			n := "1"
			if i > 0 && numbers[words[i-1]] != "" {
				n = numbers[words[i-1]]
			}
			w = strings.ReplaceAll(w, "{n}", n)
		}
		words[i] = w
	}
	return strings.Join(words, " ")
}

// startLab runs the healthy lab, with gpu01 set up so that every collector command has
// something to show (rdma_cm's default ToS directory created, an /etc/nccl.conf), and dials each device.
func startLab(t *testing.T) (*lab.Lab, map[string]*ssh.Client) {
	t.Helper()
	l, err := lab.Start(context.Background(), lab.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	l.Host("gpu01").Update(func(h *linuxhost.Host) {
		tos := 106
		_, p := h.Port(linuxhost.Port0)
		p.DefaultRoCEToS = &tos
		h.Files["/etc/nccl.conf"] = "NCCL_IB_GID_INDEX=3\n"
	})
	clients := map[string]*ssh.Client{}
	names := []string{"gpu05"}
	for _, e := range emulatedBy {
		names = append(names, e.name)
	}
	for _, name := range names {
		i := slices.IndexFunc(l.Devices, func(d lab.Device) bool { return d.Name == name })
		c, err := labtest.Dial(t, l.IdentityPath, l.KnownHostsPath, l.Devices[i].Address, l.Devices[i].Port)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		t.Cleanup(func() { _ = c.Close() })
		clients[name] = c
	}
	return l, clients
}

// answered: the device printed something, no error, and nothing the platform's CLI prints
// when it refuses a command (an exit status alone may say no, as `systemctl is-active` and
// `grep -s` over unreadable files do).
func answered(p *collectors.Descriptor, out, stderr string) bool {
	return out != "" && stderr == "" && p.Refused(out) == nil
}

// Every command a collector can send is answered by its platform's emulator over SSH, the
// perftest pairs included (the server on gpu05, the client from gpu01).
func TestEmulatorsAnswerEveryCollectorCommand(t *testing.T) {
	_, clients := startLab(t)
	for _, d := range devices(t) {
		tmpls := collectorCommands(t, d.platform)
		if len(tmpls) == 0 {
			t.Fatalf("%s: no commands", d.platform.Name())
		}
		for _, tmpl := range tmpls {
			cmd := fill(tmpl, d.vars)
			if strings.Contains(cmd, "{") {
				t.Errorf("%s: %q: placeholder left unfilled", d.platform.Name(), cmd)
				continue
			}
			if strings.Contains(tmpl, "ib_write_") {
				continue // below, as server and client pairs
			}
			out, stderr, exit := labtest.RunSSH(t, clients[d.name], cmd)
			if strings.Contains(cmd, "ss -Htln") {
				out = "(ss prints nothing for a free port)"
			}
			if strings.Contains(cmd, "pgrep -x") && exit == 1 {
				out = "(pgrep prints nothing, exit 1, when no process matches)"
			}
			if !answered(d.platform, out, stderr) {
				t.Errorf("%s %s: %q not answered: exit %d, stderr %q, stdout %q", d.platform.Name(), d.name, cmd, exit, stderr, out)
			}
		}
	}
	linux, _ := platforms.Registry().Get("linux")
	runPerftestPairs(t, clients, linux, emulatedBy["linux"].vars)
}

// runPerftestPairs runs each perftest client template against the server template it
// extends: the server on gpu05 waits, the client from gpu01 connects, both answer.
func runPerftestPairs(t *testing.T, clients map[string]*ssh.Client, linux *collectors.Descriptor, vars map[string]string) {
	t.Helper()
	tmpls := collectorCommands(t, linux)
	pairs := 0
	for _, client := range tmpls {
		server, ok := strings.CutSuffix(client, " {ip}")
		if !ok || !slices.Contains(tmpls, server) {
			continue
		}
		pairs++
		type res struct {
			out, err string
			exit     int
		}
		done := make(chan res, 1)
		srvCmd := fill(server, vars)
		go func() {
			o, e, x := labtest.RunSSH(t, clients["gpu05"], srvCmd)
			done <- res{o, e, x}
		}()
		waitListening(t, clients["gpu05"], 18600)
		out, stderr, exit := labtest.RunSSH(t, clients["gpu01"], fill(client, vars))
		if exit != 0 || !answered(linux, out, stderr) {
			t.Errorf("client %q: exit %d, stderr %q", fill(client, vars), exit, stderr)
		}
		if s := <-done; s.exit != 0 || !answered(linux, s.out, s.err) {
			t.Errorf("server %q: exit %d, stderr %q", srvCmd, s.exit, s.err)
		}
	}
	if pairs == 0 {
		t.Error("no perftest server and client templates found")
	}
}

// waitListening waits until ss on c shows a listener on port.
func waitListening(t *testing.T, c *ssh.Client, port int) {
	t.Helper()
	for i := 0; ; i++ {
		if out, _, _ := labtest.RunSSH(t, c, fmt.Sprintf("ss -Htln sport = :%d", port)); out != "" {
			return
		}
		if i > 400 {
			t.Fatal("the perftest server never listened")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// typos are misspellings of a real command: its program or first keyword, and its next word
// (an option, an object, a subcommand).
func typos(cmd string) []string {
	words := strings.Fields(cmd)
	var out []string
	for _, i := range []int{0, 1} {
		if i < len(words) && words[i] != "|" {
			w := slices.Clone(words)
			w[i] += "x"
			out = append(out, strings.Join(w, " "))
		}
	}
	return out
}

// A misspelled command is refused by every emulator, with an error message and a non-zero
// status, as the real device refuses it (a usage text on stdout is allowed, as ibv_devinfo
// prints one): the lab does not answer near misses.
func TestEmulatorsRefuseTypos(t *testing.T) {
	_, clients := startLab(t)
	for _, d := range devices(t) {
		for _, tmpl := range collectorCommands(t, d.platform) {
			for _, cmd := range typos(fill(tmpl, d.vars)) {
				out, stderr, exit := labtest.RunSSH(t, clients[d.name], cmd)
				if exit == 0 || stderr == "" {
					t.Errorf("%s %s: typo %q answered: exit %d, stderr %q, stdout %.80q", d.platform.Name(), d.name, cmd, exit, stderr, out)
				}
			}
		}
	}
}
