package cli

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/platforms"
	"github.com/roceaudit/roceaudit/collectors/sshclient"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/lab"
	"github.com/roceaudit/roceaudit/lab/sshd"
	"github.com/roceaudit/roceaudit/topology"
)

// labDevices starts the healthy lab with faults and returns its inventory cut down to the
// devices timeouts names, each with that per-device timeout.
func labDevices(t *testing.T, faults map[string]sshd.Fault, timeouts map[string]time.Duration) *inventory.Inventory {
	t.Helper()
	isolate(t)
	l, err := lab.Start(context.Background(), lab.Options{Scenario: "healthy", Dir: filepath.Join(t.TempDir(), "lab"), Faults: faults})
	if err != nil {
		t.Fatalf("lab: %v", err)
	}
	t.Cleanup(func() { _ = l.Close() })
	inv, err := inventory.Load(l.InventoryPath, platforms.Registry())
	if err != nil {
		t.Fatalf("inventory: %v", err)
	}
	var keep []inventory.DeviceSpec
	for _, d := range inv.Devices {
		if to, ok := timeouts[d.Name]; ok {
			d.Conn.Timeout = to
			keep = append(keep, d)
		}
	}
	if len(keep) != len(timeouts) {
		t.Fatalf("the lab has %d of the devices %v", len(keep), timeouts)
	}
	inv.Devices, inv.Links, inv.Paths = keep, nil, nil
	return inv
}

// A CLI that answers a command with endless output is read up to the exec transport's cap,
// no further, and fails that command at once (not at the deadline) saying so.
func TestFloodingCLIStopsAtTheOutputCap(t *testing.T) {
	inv := labDevices(t, map[string]sshd.Fault{"leaf4": sshd.FaultFlood}, map[string]time.Duration{"leaf4": 20 * time.Second})
	reg := platforms.Registry()
	d, _ := reg.Get("nxos")
	s, err := DialIn(context.Background(), sshclient.ConfigFor(inv.Devices[0], d.Allowlist(), false), reg, "nxos")
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	defer s.Close()
	// Without a cap the flood would be read until this deadline.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := s.Run(ctx, "show version | json")
	if !errors.Is(err, ErrOutputTooLarge) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, sshclient.ErrTimeout) {
		t.Fatalf("Run = %v, want ErrOutputTooLarge and no timeout", err)
	}
	if out.Stdout != "" || out.Stderr != "" {
		t.Errorf("the flood was kept: %d bytes", len(out.Stdout)+len(out.Stderr))
	}
	// The transport reads a chunk at a time: one past the cap is the most it may have taken.
	if got := s.tr.received(); got < sshclient.MaxOutput || got > maxRead+readSize {
		t.Errorf("read %d bytes of the flood, want the cap (%d) and at most %d", got, sshclient.MaxOutput, maxRead+readSize)
	}
	for _, want := range []string{"output exceeded 16 MiB without a prompt", "show version | json", "last output from the device", "Ethernet1/1 is up"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if len(err.Error()) > 600 {
		t.Errorf("a %d-byte error", len(err.Error()))
	}
	if _, err := s.Run(context.Background(), "show version | json"); !errors.Is(err, ErrClosed) {
		t.Fatalf("Run after the flood = %v, want ErrClosed", err)
	}
}

// Devices that log in but whose CLI misbehaves are reachable, and their facts error says what
// the CLI did: a flood names the cap (with no advice to wait longer); a prompt that never
// comes, at login or after a command, names the prompt pattern and what came instead, though
// the device's deadline runs out before the session's own timeout would.
func TestMisbehavingCLIsAreReachableAndSayWhy(t *testing.T) {
	inv := labDevices(t,
		map[string]sshd.Fault{"leaf3": sshd.FaultNoPrompt, "leaf4": sshd.FaultFlood, "spine1": sshd.FaultStall},
		map[string]time.Duration{"leaf3": 2 * time.Second, "leaf4": 20 * time.Second, "spine1": 2 * time.Second})
	reg := platforms.Registry()
	dialer := NewMultiDialer(sshclient.NewDialer(false), Dialer{Platforms: reg}, reg.Interactive)
	snap, err := collectors.Collect(context.Background(), inv, reg, dialer, collectors.Options{})
	if err != nil {
		t.Fatalf("Collect: %v", err)
	}
	want := map[string][]string{
		"leaf3":  {"opening the CLI", "no prompt matching the eos pattern", `last output from the device: "\r\nPassword: "`},
		"leaf4":  {"show version | json", "output exceeded 16 MiB without a prompt", "Ethernet1/1 is up"},
		"spine1": {`"show version | json"`, "no prompt matching the nxos pattern", "spine1#show version | json", "raise it with --timeout"},
	}
	for _, dev := range snap.Devices {
		if !dev.Reachable {
			t.Errorf("%s: unreachable after logging in: %s", dev.Name, dev.Error)
		}
		for _, w := range want[dev.Name] {
			if !strings.Contains(dev.Error, w) {
				t.Errorf("%s: error %q lacks %q", dev.Name, dev.Error, w)
			}
		}
		if len(dev.Error) > 2000 {
			t.Errorf("%s: a %d-byte error", dev.Name, len(dev.Error))
		}
	}
	leaf4 := snap.Devices[deviceIndex(t, snap, "leaf4")]
	if strings.Contains(leaf4.Error, "--timeout") || strings.Contains(leaf4.Error, "deadline") {
		t.Errorf("leaf4 floods, yet: %s", leaf4.Error)
	}
	kept := 0
	for _, ex := range leaf4.Transcript {
		kept += len(ex.Stdout) + len(ex.Stderr)
		if ex.Command == "show version | json" && !strings.Contains(ex.Error, ErrOutputTooLarge.Error()) {
			t.Errorf("the flooded command's transcript: %+v", ex.Error)
		}
	}
	if kept != 0 {
		t.Errorf("the transcript kept %d bytes of the flood", kept)
	}
}

func deviceIndex(t *testing.T, snap *topology.Snapshot, name string) int {
	t.Helper()
	for i, d := range snap.Devices {
		if d.Name == name {
			return i
		}
	}
	t.Fatalf("no device %s", name)
	return -1
}
