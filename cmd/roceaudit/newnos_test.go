package main

// "Adding a NOS is one package plus one line": a NOS defined only here, registered next to
// the built-in ones, goes through the inventory, plan, the allowlist, collection over real
// SSH, the checks and remediation with no other edit.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/platforms"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/lab/labtest"
	"github.com/roceaudit/roceaudit/labcheck"
	"github.com/roceaudit/roceaudit/remedy"
	"github.com/roceaudit/roceaudit/topology"
)

const acmePorts = "acme show ports"

// acme is the test's NOS: an exec switch with one read-only command.
var acme = collectors.Describe(collectors.Spec{
	Name:      "acme",
	Role:      topology.RoleSwitch,
	Commands:  []string{acmePorts},
	Collector: acmeCollector{},
	Remedy: func(in remedy.Input) string {
		if in.CheckID == "SW-MTU" {
			return fmt.Sprintf("acme set port %s mtu %d", in.Port, in.Recipe.SwitchMTU)
		}
		return ""
	},
	ExamplePort: "p1",
})

type acmeCollector struct{}

func (acmeCollector) Plan(inventory.DeviceSpec) []string { return []string{acmePorts} }

// Collect first tries a command outside the allowlist (which must be refused before it is
// sent), then reads "NAME MTU" lines.
func (acmeCollector) Collect(ctx context.Context, r collectors.Runner, _ inventory.DeviceSpec, dev *topology.Device) error {
	if _, err := r.Run(ctx, "acme reload"); !errors.Is(err, collectors.ErrNotAllowed) {
		return fmt.Errorf("acme reload was not refused: %v", err)
	}
	out, err := r.Run(ctx, acmePorts)
	if err != nil {
		return fmt.Errorf("%s: %w", acmePorts, err)
	}
	dev.Switch = &topology.SwitchFacts{NOS: "acme"}
	for _, line := range strings.Split(strings.TrimSpace(out.Stdout), "\n") {
		name, mtu, _ := strings.Cut(line, " ")
		n, err := strconv.Atoi(mtu)
		if err != nil {
			return fmt.Errorf("%s: %q: %w", acmePorts, line, err)
		}
		dev.Switch.Ports = append(dev.Switch.Ports, &topology.SwitchPort{Name: name,
			MTU: topology.Known(topology.MTU{Configured: n, Kind: "frame", Normalized: n}, topology.Evidence{Command: acmePorts, Excerpt: line})})
	}
	return nil
}

// acmeDevice answers the one command over SSH and remembers every command it received.
type acmeDevice struct {
	mu   sync.Mutex
	seen []string
}

func (d *acmeDevice) Exec(_ context.Context, cmd string) (string, string, int) {
	d.mu.Lock()
	d.seen = append(d.seen, cmd)
	d.mu.Unlock()
	if cmd == acmePorts {
		return "p1 1500\np2 9100\n", "", 0
	}
	return "", "acme: unknown command\n", 127
}

func TestANewNOSIsOnePackageAndOneLine(t *testing.T) {
	reg := collectors.NewRegistry(append(platforms.Descriptors(), acme)...)
	dev := &acmeDevice{}
	srv := labtest.StartSSH(t, dev, "admin")
	cfg := labcheck.ClientConfig(t, srv, "admin")
	inv := filepath.Join(t.TempDir(), "inv.yaml")
	src := fmt.Sprintf(`version: 1
defaults: {user: admin, identity_file: %s, known_hosts: %s, timeout: 10s}
recipe: {switch_mtu: 9100}
switches:
  - {name: sw1, platform: acme, address: 127.0.0.1, port: %d}
  - {name: sw2, platform: acme, address: 127.0.0.1, port: %d}
links:
  - [sw1:p1, sw2:p2]
`, cfg.IdentityFile, cfg.KnownHostsFile, srv.Port, srv.Port)
	if err := os.WriteFile(inv, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	runReg := func(args ...string) (int, string, string) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		var out, errb bytes.Buffer
		code := mainWith(ctx, reg, args, strings.NewReader(""), &out, &errb)
		return code, out.String(), errb.String()
	}

	// The inventory accepts the platform; without the extra line it does not.
	if code, out, errs := runReg("validate", "-i", inv); code != exitOK {
		t.Fatalf("validate: %d %s %s", code, out, errs)
	}
	if code, _, errs := run(t, "validate", "-i", inv); code != exitUsage || !strings.Contains(errs, `unknown platform "acme"`) {
		t.Errorf("validate without acme: %d %s", code, errs)
	}

	// plan lists its commands, and nothing else.
	code, out, errs := runReg("plan", "-i", inv, "--format", "json")
	if code != exitOK {
		t.Fatalf("plan: %d %s", code, errs)
	}
	var plan struct{ Devices []planDevice }
	if err := json.Unmarshal([]byte(out), &plan); err != nil {
		t.Fatal(err)
	}
	if len(plan.Devices) != 2 || !slices.Equal(plan.Devices[0].Commands, []string{acmePorts}) || plan.Devices[0].SessionInput != nil {
		t.Errorf("plan: %+v", plan.Devices)
	}

	// explain shows its fix on its example port, with the default recipe's MTU.
	if code, out, _ := runReg("explain", "sw-mtu"); code != exitOK || !strings.Contains(out, "acme, on example port p1:\n    acme set port p1 mtu 9216\n") {
		t.Errorf("explain: %d %s", code, out)
	}

	// The audit collects over SSH, checks its facts and writes its own fix with the recipe's MTU.
	code, out, errs = runReg("audit", "-i", inv, "--format", "json", "--only", "SW-MTU")
	if code != exitFailed {
		t.Fatalf("audit: exit %d, want %d\n%s\n%s", code, exitFailed, out, errs)
	}
	rep := decodeReport(t, out)
	var mtu []string
	for _, r := range rep.Results {
		if r.Check == "SW-MTU" {
			mtu = append(mtu, fmt.Sprintf("%s %s:%s %s", r.Status, r.Device, r.Interface, r.Remediation))
		}
	}
	slices.Sort(mtu)
	if want := []string{"fail sw1:p1 acme set port p1 mtu 9100", "pass sw2:p2 "}; !slices.Equal(mtu, want) {
		t.Errorf("SW-MTU results %q, want %q", mtu, want)
	}
	for _, r := range rep.Results {
		if strings.HasPrefix(r.Check, "COLLECT-") && r.Status != "pass" {
			t.Errorf("%s %s: %s %s", r.Check, r.Device, r.Status, r.Message)
		}
	}
	dev.mu.Lock()
	defer dev.mu.Unlock()
	if len(dev.seen) != 2 || slices.ContainsFunc(dev.seen, func(c string) bool { return c != acmePorts }) {
		t.Errorf("the device received %q; want only %q, once per switch", dev.seen, acmePorts)
	}
}
