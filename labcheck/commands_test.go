package labcheck

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/roceaudit/roceaudit/collectors/platforms"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/lab"
	"github.com/roceaudit/roceaudit/lab/labtest"
	"github.com/roceaudit/roceaudit/lab/linuxhost"
)

// collectorCommands is every command template the platform's collector can send: its
// allowlist and its plans for a device with no interfaces given, without and with sudo
// (placeholders left in). The one place this check reads the collectors' registry.
func collectorCommands(t *testing.T, platform string) []string {
	t.Helper()
	p, ok := platforms.Registry().Get(platform)
	if !ok {
		t.Fatalf("no platform %q in the registry", platform)
	}
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

// device is the lab device each platform's commands go to, and the names of its that fill
// the placeholders. gpu05 is the perftest server's host for gpu01's client commands.
var devices = []struct {
	platform, name string
	vars           map[string]string
}{
	{"linux", "gpu01", map[string]string{"{if}": linuxhost.Port0, "{dev}": "mlx5_0", "{port}": "1", "{ip}": "10.1.0.5"}},
	{"sonic", "leaf1", nil},
	{"cumulus", "leaf2", map[string]string{"{if}": "swp1"}},
	{"eos", "leaf3", nil},
	{"nxos", "leaf4", nil},
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
	for _, name := range []string{"gpu01", "gpu05", "leaf1", "leaf2", "leaf3", "leaf4"} {
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

// answered: the device printed something and no error (an exit status alone may say no,
// as `systemctl is-active` and `grep -s` over unreadable files do).
func answered(out, stderr string) bool { return out != "" && stderr == "" }

// Every command a collector can send is answered by its platform's emulator over SSH, the
// perftest pairs included (the server on gpu05, the client from gpu01).
func TestEmulatorsAnswerEveryCollectorCommand(t *testing.T) {
	_, clients := startLab(t)
	for _, d := range devices {
		tmpls := collectorCommands(t, d.platform)
		if len(tmpls) == 0 {
			t.Fatalf("%s: no commands", d.platform)
		}
		for _, tmpl := range tmpls {
			cmd := fill(tmpl, d.vars)
			if strings.Contains(cmd, "{") {
				t.Errorf("%s: %q: placeholder left unfilled", d.platform, cmd)
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
			if !answered(out, stderr) {
				t.Errorf("%s %s: %q not answered: exit %d, stderr %q, stdout %q", d.platform, d.name, cmd, exit, stderr, out)
			}
		}
	}
	runPerftestPairs(t, clients, collectorCommands(t, "linux"), devices[0].vars)
}

// runPerftestPairs runs each perftest client template against the server template it
// extends: the server on gpu05 waits, the client from gpu01 connects, both answer.
func runPerftestPairs(t *testing.T, clients map[string]*ssh.Client, tmpls []string, vars map[string]string) {
	t.Helper()
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
		if exit != 0 || !answered(out, stderr) {
			t.Errorf("client %q: exit %d, stderr %q", fill(client, vars), exit, stderr)
		}
		if s := <-done; s.exit != 0 || !answered(s.out, s.err) {
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
	for _, d := range devices {
		for _, tmpl := range collectorCommands(t, d.platform) {
			for _, cmd := range typos(fill(tmpl, d.vars)) {
				out, stderr, exit := labtest.RunSSH(t, clients[d.name], cmd)
				if exit == 0 || stderr == "" {
					t.Errorf("%s %s: typo %q answered: exit %d, stderr %q, stdout %.80q", d.platform, d.name, cmd, exit, stderr, out)
				}
			}
		}
	}
}
