package bench

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// labProcess is `roceaudit lab up` running as a child process, as a user would run it.
type labProcess struct {
	cmd       *exec.Cmd
	dir       string
	inventory string
	startup   time.Duration
	inv       labInventory
	stopped   bool
	cost      usage // filled by stop
	readyCPU  time.Duration
	readyErr  error // why readyCPU is not known
}

// readyNote is the lab's CPU until ready, for the table.
func (l *labProcess) readyNote() string {
	if l.readyErr != nil {
		return "; CPU until ready not measured: " + l.readyErr.Error()
	}
	return fmt.Sprintf("; CPU until ready %.2fs", l.readyCPU.Seconds())
}

// labInventory is what the harness reads of the lab's inventory.
type labInventory struct {
	Defaults struct {
		User         string `yaml:"user"`
		IdentityFile string `yaml:"identity_file"`
		KnownHosts   string `yaml:"known_hosts"`
	} `yaml:"defaults"`
	Hosts    []labDevice `yaml:"hosts"`
	Switches []labDevice `yaml:"switches"`
}

type labDevice struct {
	Name     string `yaml:"name"`
	Platform string `yaml:"platform"`
	Address  string `yaml:"address"`
	Port     int    `yaml:"port"`
}

func (i labInventory) devices() []labDevice {
	return append(append([]labDevice(nil), i.Hosts...), i.Switches...)
}

// startLab runs `lab up --generate` and waits for its ready line (bounded by timeout).
func startLab(t *testing.T, bin, generate string, latency time.Duration, dir string, timeout time.Duration) *labProcess {
	t.Helper()
	l := &labProcess{dir: dir, inventory: filepath.Join(dir, "inventory.yaml")}
	l.cmd = exec.Command(bin, "lab", "up", "--generate", generate, "--latency", latency.String(), "--dir", dir)
	out, err := l.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	l.cmd.Stderr = os.Stderr
	start := time.Now()
	if err := l.cmd.Start(); err != nil {
		t.Fatalf("lab up: %v", err)
	}
	t.Cleanup(func() { l.stop(t) })
	ready := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "lab ready:") {
				ready <- nil
				for sc.Scan() { // keep draining so the lab never blocks on stdout
				}
				return
			}
		}
		ready <- fmt.Errorf("lab up ended before it was ready")
	}()
	select {
	case err := <-ready:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(timeout):
		t.Fatalf("lab up: not ready after %v", timeout)
	}
	l.startup = time.Since(start)
	l.readyCPU, l.readyErr = procCPU(l.cmd.Process.Pid)
	raw, err := os.ReadFile(l.inventory)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(raw, &l.inv); err != nil {
		t.Fatalf("lab inventory: %v", err)
	}
	return l
}

// stop interrupts the lab as Ctrl-C would, and kills it if it does not end in time.
func (l *labProcess) stop(t *testing.T) {
	if l.stopped {
		return
	}
	l.stopped = true
	_ = l.cmd.Process.Signal(syscall.SIGINT)
	done := make(chan struct{})
	go func() {
		_ = l.cmd.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Errorf("lab up did not stop on SIGINT within 30s: killed")
		_ = l.cmd.Process.Kill()
		<-done
	}
	l.cost.cpu, l.cost.maxRSS = rusageOf(l.cmd.ProcessState)
}

// subInventory writes an inventory of only the named devices (no links or paths, which
// would name the others) beside the lab's, so relative key paths still resolve.
func (l *labProcess) subInventory(t *testing.T, name string, keep map[string]bool) string {
	t.Helper()
	raw, err := os.ReadFile(l.inventory)
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil || len(doc.Content) == 0 {
		t.Fatalf("lab inventory: %v", err)
	}
	top := doc.Content[0]
	var kept []*yaml.Node
	for i := 0; i+1 < len(top.Content); i += 2 {
		key, val := top.Content[i], top.Content[i+1]
		switch key.Value {
		case "links", "paths":
			continue
		case "hosts", "switches":
			var items []*yaml.Node
			for _, item := range val.Content {
				var d labDevice
				if err := item.Decode(&d); err == nil && keep[d.Name] {
					items = append(items, item)
				}
			}
			if len(items) == 0 {
				continue
			}
			val.Content = items
		}
		kept = append(kept, key, val)
	}
	top.Content = kept
	data, err := yaml.Marshal(&doc)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(l.dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
