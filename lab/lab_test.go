package lab

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/roceaudit/roceaudit/lab/labtest"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
	"gopkg.in/yaml.v3"
)

// dial connects to a lab device the way the auditor does: the written key, strict known_hosts.
func dial(t *testing.T, l *Lab, name string) (*ssh.Client, error) {
	t.Helper()
	i := slices.IndexFunc(l.Devices, func(d Device) bool { return d.Name == name })
	if i < 0 {
		t.Fatalf("no device %s", name)
	}
	return labtest.Dial(t, l.IdentityPath, l.KnownHostsPath, l.Devices[i].Address, l.Devices[i].Port)
}

func runSSH(t *testing.T, c *ssh.Client, cmd string) (string, string, int) {
	t.Helper()
	return labtest.RunSSH(t, c, cmd)
}

func TestHealthyLabOverSSH(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lab")
	l, err := Start(context.Background(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()

	if len(l.Devices) < 8 || l.Devices[0].Name != "gpu01" || l.Devices[7].Name != "gpu08" {
		t.Fatalf("devices %+v", l.Devices)
	}
	for path, perm := range map[string]os.FileMode{dir: 0o700 | os.ModeDir, l.IdentityPath: 0o600} {
		if st, err := os.Stat(path); err != nil || st.Mode() != perm {
			t.Errorf("%s: mode %v (%v), want %v", path, st.Mode(), err, perm)
		}
	}

	c, err := dial(t, l, "gpu01")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if got := string(c.ServerVersion()); got != "SSH-2.0-roceaudit-lab" {
		t.Errorf("server version %q", got)
	}
	out, errOut, exit := runSSH(t, c, "ibv_devinfo -v")
	if exit != 0 || errOut != "" || !strings.HasPrefix(out, "hca_id:\tmlx5_0\n") ||
		!strings.Contains(out, "\t\t\tGID[  3]:\t\t::ffff:10.1.0.1, RoCE v2\n") {
		t.Errorf("ibv_devinfo -v over SSH: exit %d stderr %q\n%.300s", exit, errOut, out)
	}
	if out, errOut, exit := runSSH(t, c, "uname -a"); out != "" || exit != 127 || errOut != "bash: line 1: uname: command not found\n" {
		t.Errorf("unknown command: %q %q %d", out, errOut, exit)
	}
	if out, _, exit := runSSH(t, c, "sudo -n cat /sys/class/infiniband/mlx5_1/tc/1/traffic_class"); out != "Global tclass=106\n" || exit != 0 {
		t.Errorf("sudo cat traffic_class: %q %d", out, exit)
	}

	// gpu02 has no mlnx_qos: the collector's fallback trigger.
	c2, err := dial(t, l, "gpu02")
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	if _, errOut, exit := runSSH(t, c2, "mlnx_qos -i ens1f0np0"); exit != 127 || !strings.Contains(errOut, "mlnx_qos: command not found") {
		t.Errorf("gpu02 mlnx_qos: %q %d", errOut, exit)
	}

	if err := l.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	for _, d := range l.Devices {
		if conn, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", d.Port), time.Second); err == nil {
			conn.Close()
			t.Errorf("%s still accepts connections after Close", d.Name)
		}
	}
	if _, err := os.Stat(l.InventoryPath); err != nil {
		t.Errorf("Close removed a directory it did not create: %v", err)
	}
}

func TestWrittenFiles(t *testing.T) {
	l, err := Start(context.Background(), Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()

	kh, err := os.ReadFile(l.KnownHostsPath)
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`^\[127\.0\.0\.1\]:(\d+) ssh-ed25519 AAAA\S+$`)
	lines := strings.Split(strings.TrimSuffix(string(kh), "\n"), "\n")
	if len(lines) != len(l.Devices) {
		t.Fatalf("%d known_hosts lines for %d devices", len(lines), len(l.Devices))
	}
	for i, ln := range lines {
		m := line.FindStringSubmatch(ln)
		if m == nil || m[1] != fmt.Sprint(l.Devices[i].Port) {
			t.Errorf("known_hosts line %q (device %+v)", ln, l.Devices[i])
		}
	}

	raw, err := os.ReadFile(l.InventoryPath)
	if err != nil {
		t.Fatal(err)
	}
	var inv struct {
		Version  int `yaml:"version"`
		Defaults struct {
			User         string `yaml:"user"`
			IdentityFile string `yaml:"identity_file"`
			KnownHosts   string `yaml:"known_hosts"`
			Timeout      string `yaml:"timeout"`
		} `yaml:"defaults"`
		Hosts []struct {
			Name       string   `yaml:"name"`
			Address    string   `yaml:"address"`
			Port       int      `yaml:"port"`
			Interfaces []string `yaml:"interfaces"`
			GIDIndex   *int     `yaml:"gid_index"`
		} `yaml:"hosts"`
		Switches []struct {
			Name     string `yaml:"name"`
			Platform string `yaml:"platform"`
			Address  string `yaml:"address"`
			Port     int    `yaml:"port"`
		} `yaml:"switches"`
		Links [][2]string `yaml:"links"`
	}
	dec := yaml.NewDecoder(strings.NewReader(string(raw)))
	dec.KnownFields(true)
	if err := dec.Decode(&inv); err != nil {
		t.Fatalf("inventory: %v\n%s", err, raw)
	}
	d := inv.Defaults
	if inv.Version != 1 || d.User != "roceaudit" || d.IdentityFile != "id_ed25519" || d.KnownHosts != "known_hosts" || d.Timeout != "10s" {
		t.Errorf("inventory header: %+v", inv)
	}
	if len(inv.Hosts)+len(inv.Switches) != len(l.Devices) {
		t.Fatalf("%d inventory hosts and %d switches for %d devices", len(inv.Hosts), len(inv.Switches), len(l.Devices))
	}
	for i, h := range inv.Hosts {
		if h.Name != l.Devices[i].Name || h.Address != "127.0.0.1" || h.Port != l.Devices[i].Port {
			t.Errorf("inventory host %+v, device %+v", h, l.Devices[i])
		}
	}
	if !cmp.Equal(inv.Links, DeclaredLinks(l.Scenario)) {
		t.Errorf("links %v, want %v", inv.Links, DeclaredLinks(l.Scenario))
	}
	for i, s := range inv.Switches {
		d := l.Devices[len(inv.Hosts)+i]
		if s.Name != d.Name || s.Platform != d.Platform || s.Port != d.Port || s.Platform == "" {
			t.Errorf("inventory switch %+v, device %+v", s, d)
		}
	}
	g1 := inv.Hosts[0]
	if strings.Join(g1.Interfaces, ",") != "ens1f0np0,ens1f1np1" || g1.GIDIndex == nil || *g1.GIDIndex != 3 {
		t.Errorf("gpu01 inventory entry %+v", g1)
	}
	if inv.Hosts[1].GIDIndex != nil || inv.Hosts[1].Interfaces != nil {
		t.Errorf("gpu02 has settings it should not: %+v", inv.Hosts[1])
	}
	entries, _ := os.ReadDir(l.Dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

func TestBrokenLab(t *testing.T) {
	l, err := Start(context.Background(), Options{Scenario: "broken"})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if len(l.Devices) < 9 || l.Devices[8].Name != "gpu09" {
		t.Fatalf("devices %+v", l.Devices)
	}

	_, err = dial(t, l, "gpu09")
	var ke *knownhosts.KeyError
	if !errors.As(err, &ke) || len(ke.Want) == 0 {
		t.Fatalf("gpu09: %v, want a known_hosts key mismatch", err)
	}
	c, err := dial(t, l, "gpu08")
	if err != nil {
		t.Fatalf("gpu08 (right key) does not connect: %v", err)
	}
	c.Close()

	dir := l.Dir
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("temporary lab directory %s survives Close: %v", dir, err)
	}
	if err := l.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestUnknownScenario(t *testing.T) {
	if _, err := Start(context.Background(), Options{Scenario: "chaos", Dir: t.TempDir()}); err == nil ||
		!strings.Contains(err.Error(), "healthy") {
		t.Errorf("unknown scenario: %v", err)
	}
}

func TestCanceledStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Start(ctx, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Start with a canceled context: %v", err)
	}
}
