// Package lab is roceaudit's built-in emulated fabric: one real SSH server per
// device on 127.0.0.1, answering like a real Linux RDMA host or switch from a small state
// (hosts also run emulated perftest transfers, lab/rdmaemu), plus the inventory, client key
// and known_hosts to audit it. It never executes anything.
package lab

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/roceaudit/roceaudit/lab/linuxhost"
	"github.com/roceaudit/roceaudit/lab/rdmaemu"
	"github.com/roceaudit/roceaudit/lab/sshd"
	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// ServerVersion is the SSH identification every lab device presents; the auditor marks
// reports from such devices as simulated.
const ServerVersion = sshd.Version

// Options choose what Start runs.
type Options struct {
	Scenario string // one of Scenarios(); "" is healthy
	// Generate runs a generated Clos of this size instead of a scenario (Scenario must be "").
	Generate *Generate
	Dir      string        // where the files go (created 0700); "" is a temp dir Close removes
	Latency  time.Duration // every flight a device sends is held this long
	// Faults make the named devices misbehave (refuse, auth-fail, stall, drop, garbage, slow,
	// flood, no-prompt).
	Faults map[string]sshd.Fault
}

// Device is one running emulated device.
type Device struct {
	Name     string
	Platform string // "linux"
	Address  string // always 127.0.0.1
	Port     int
}

// Lab is a running emulated fabric.
type Lab struct {
	Scenario       string    // ScenarioGenerated for a generated fabric
	Generated      *Generate // the size of a generated fabric; nil for a scenario
	Dir            string
	InventoryPath  string
	KnownHostsPath string
	IdentityPath   string
	Devices        []Device

	servers   []*sshd.Server
	hosts     map[string]*linuxhost.Host
	switches  map[string]*switchstate.Switch
	transfers *rdmaemu.Emulator // perftest on the hosts
	tempDir   bool
	unlock    func() // releases the directory lock

	closeOnce sync.Once
	closeErr  error
}

// Start runs every device of the scenario and writes the client key, known_hosts and
// inventory. It returns once every device accepts connections; the inventory is written last,
// so a reader that sees it can use the whole lab. ctx bounds the start only: Close stops the
// lab.
func Start(ctx context.Context, opts Options) (*Lab, error) {
	l := &Lab{Scenario: opts.Scenario, hosts: map[string]*linuxhost.Host{}, switches: map[string]*switchstate.Switch{}}
	var devs []*device
	switch {
	case opts.Generate != nil && opts.Scenario != "":
		return nil, fmt.Errorf("lab: a scenario (%q) and a generated fabric (%s) are mutually exclusive", opts.Scenario, opts.Generate)
	case opts.Generate != nil:
		if err := opts.Generate.Validate(); err != nil {
			return nil, fmt.Errorf("lab: %w", err)
		}
		g := *opts.Generate
		l.Scenario, l.Generated = ScenarioGenerated, &g
		devs = g.build(opts.Latency)
	default:
		if l.Scenario == "" {
			l.Scenario = ScenarioHealthy
		}
		var err error
		if devs, err = build(l.Scenario, opts.Latency); err != nil {
			return nil, err
		}
	}
	if err := checkFaults(devs, opts.Faults); err != nil {
		return nil, err
	}
	if err := checkFDLimit(len(devs)); err != nil {
		return nil, err
	}
	transfers, err := newTransfers(devs, 0, opts.Latency)
	if err != nil {
		return nil, err
	}
	l.transfers = transfers
	if err := l.prepareDir(opts.Dir); err != nil {
		return nil, err
	}
	if err := l.start(ctx, devs, opts.Latency, opts.Faults); err != nil {
		_ = l.Close()
		return nil, err
	}
	return l, nil
}

// Paths are the lab's endpoint pairs for path checks and transfers: Paths(Scenario) for a
// scenario, Generate.Paths for a generated fabric.
func (l *Lab) Paths() [][2]string {
	if l.Generated != nil {
		return l.Generated.Paths()
	}
	return Paths(l.Scenario)
}

// DeclaredLinks are the links the lab's inventory declares: DeclaredLinks(Scenario) for a
// scenario, Generate.DeclaredLinks for a generated fabric.
func (l *Lab) DeclaredLinks() [][2]string {
	if l.Generated != nil {
		return l.Generated.DeclaredLinks()
	}
	return DeclaredLinks(l.Scenario)
}

// title names the lab in the inventory's first line.
func (l *Lab) title() string {
	if l.Generated != nil {
		return fmt.Sprintf("generated Clos (%s)", l.Generated)
	}
	return fmt.Sprintf("scenario %q", l.Scenario)
}

func (l *Lab) prepareDir(dir string) error {
	if dir == "" {
		d, err := os.MkdirTemp("", "roceaudit-lab-")
		if err != nil {
			return fmt.Errorf("lab: create a temporary directory: %w", err)
		}
		l.Dir, l.tempDir = d, true
	} else {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("lab: create %s: %w", dir, err)
		}
		abs, err := filepath.Abs(dir)
		if err != nil {
			return fmt.Errorf("lab: %s: %w", dir, err)
		}
		l.Dir = abs
	}
	release, err := lock(l.Dir)
	if err != nil {
		return err
	}
	l.unlock = release
	l.InventoryPath = filepath.Join(l.Dir, InventoryFile)
	l.KnownHostsPath = filepath.Join(l.Dir, KnownHostsFile)
	l.IdentityPath = filepath.Join(l.Dir, IdentityFile)
	return nil
}

func (l *Lab) start(ctx context.Context, devs []*device, latency time.Duration, faults map[string]sshd.Fault) error {
	_, clientKey, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return fmt.Errorf("lab: generate the client key: %w", err)
	}
	client, err := ssh.NewSignerFromKey(clientKey)
	if err != nil {
		return fmt.Errorf("lab: client key: %w", err)
	}

	var known strings.Builder
	ports := make([]int, 0, len(devs))
	for _, d := range devs {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("lab: start interrupted: %w", err)
		}
		hostKey, err := newHostKey()
		if err != nil {
			return fmt.Errorf("lab: %s: %w", d.name, err)
		}
		presented := hostKey
		if d.hostKeyMismatch {
			if presented, err = newHostKey(); err != nil {
				return fmt.Errorf("lab: %s: %w", d.name, err)
			}
		}
		fault, ok := faults[d.name]
		if !ok {
			fault = d.fault
		}
		srv, err := sshd.Start(sshd.Config{
			Device: d.dev, HostKey: presented, ClientKey: client.PublicKey(), User: labUser, Latency: latency,
			Fault: fault,
		})
		if err != nil {
			return fmt.Errorf("lab: %s: %w", d.name, err)
		}
		l.servers = append(l.servers, srv)
		ports = append(ports, srv.Port())
		l.Devices = append(l.Devices, Device{Name: d.name, Platform: d.platform, Address: "127.0.0.1", Port: srv.Port()})
		if d.host != nil {
			l.hosts[d.name] = d.host
		}
		if d.sw != nil {
			l.switches[d.name] = d.sw
		}
		addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(srv.Port()))
		known.WriteString(knownhosts.Line([]string{knownhosts.Normalize(addr)}, hostKey.PublicKey()) + "\n")
	}

	block, err := ssh.MarshalPrivateKey(clientKey, "roceaudit lab client")
	if err != nil {
		return fmt.Errorf("lab: encode the client key: %w", err)
	}
	if err := writeFileAtomic(l.IdentityPath, pem.EncodeToMemory(block), 0o600); err != nil {
		return fmt.Errorf("lab: %w", err)
	}
	if err := writeFileAtomic(l.KnownHostsPath, []byte(known.String()), 0o644); err != nil {
		return fmt.Errorf("lab: %w", err)
	}
	inv := inventoryYAML(l.title(), l.DeclaredLinks(), l.Paths(), devs, ports)
	if err := writeFileAtomic(l.InventoryPath, []byte(inv), 0o644); err != nil {
		return fmt.Errorf("lab: %w", err)
	}
	return nil
}

func newHostKey() (ssh.Signer, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generate a host key: %w", err)
	}
	return ssh.NewSignerFromKey(priv)
}

// Host is the emulated state of a Linux device, for tests and for emulations that change it
// while the lab runs (through Host.Update); nil for an unknown name.
func (l *Lab) Host(name string) *linuxhost.Host { return l.hosts[name] }

// Switch is the emulated state of a switch, for tests that change it while the lab runs
// (through Switch.Update); nil for an unknown name.
func (l *Lab) Switch(name string) *switchstate.Switch { return l.switches[name] }

// Close stops every device and waits for them; it removes the directory only when Start
// created a temporary one. It is safe to call more than once.
func (l *Lab) Close() error {
	l.closeOnce.Do(func() {
		var errs []error
		for _, s := range l.servers {
			errs = append(errs, s.Close())
		}
		if l.unlock != nil {
			l.unlock()
		}
		if l.tempDir {
			if err := os.RemoveAll(l.Dir); err != nil {
				errs = append(errs, fmt.Errorf("lab: remove %s: %w", l.Dir, err))
			}
		}
		l.closeErr = errors.Join(errs...)
	})
	return l.closeErr
}
