package collectors

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

type fakePlatform struct{ send []string }

// fake describes a host platform allowing two commands, collected by c.
func fake(c Collector) *Descriptor {
	return Describe(Spec{Name: "fake", Role: topology.RoleHost, Commands: []string{"ethtool -a {if}", "cat /etc/nccl.conf"}, Collector: c})
}

func (fakePlatform) Plan(inventory.DeviceSpec) []string { return nil }
func (f fakePlatform) Collect(ctx context.Context, r Runner, _ inventory.DeviceSpec, dev *topology.Device) error {
	dev.Host = &topology.HostFacts{}
	for _, c := range f.send {
		if _, err := r.Run(ctx, c); err != nil && !errors.Is(err, ErrNotAllowed) {
			return err
		}
	}
	return nil
}

type fakeSession struct{ sent *[]string }

func (s fakeSession) Run(_ context.Context, c string) (Output, error) {
	*s.sent = append(*s.sent, c)
	return Output{Stdout: "out of " + c}, nil
}
func (fakeSession) Close() error    { return nil }
func (fakeSession) Simulated() bool { return true }

type fakeDialer struct {
	sent map[string]*[]string
}

func (d fakeDialer) Dial(_ context.Context, spec inventory.DeviceSpec, _ *Allowlist) (Session, error) {
	switch spec.Name {
	case "down":
		return nil, errors.New("ssh netops@10.0.0.9:22: connection refused")
	case "mute": // logged in, but its CLI never showed a prompt
		return nil, fmt.Errorf("opening the CLI: %w", LoggedIn(fmt.Errorf("%w matching #$", ErrNoPrompt)))
	}
	return fakeSession{sent: d.sent[spec.Name]}, nil
}

func TestCollectRecordsRefusesAndSurvivesUnreachableDevices(t *testing.T) {
	reg := NewRegistry(fake(fakePlatform{send: []string{"ethtool -a eth0", "mlnx_qos -i eth0 --pfc 0,0,0,1,0,0,0,0", "ethtool -a eth0; reboot"}}))
	inv := &inventory.Inventory{Recipe: recipe.Default(), Devices: []inventory.DeviceSpec{
		{Name: "up", Platform: "fake", Role: topology.RoleHost},
		{Name: "down", Platform: "fake", Role: topology.RoleHost},
		{Name: "odd", Platform: "nope", Role: topology.RoleHost},
	}}
	sent := map[string]*[]string{"up": {}, "down": {}}
	var progress atomic.Int32
	snap, err := Collect(context.Background(), inv, reg, fakeDialer{sent}, Options{Progress: func(int, int, string) { progress.Add(1) }})
	if err != nil {
		t.Fatal(err)
	}
	up, down, odd := snap.Devices[0], snap.Devices[1], snap.Devices[2]
	if !up.Reachable || down.Reachable || !strings.Contains(down.Error, "connection refused") {
		t.Errorf("reachability: up=%v down=%v %q", up.Reachable, down.Reachable, down.Error)
	}
	if !strings.Contains(odd.Error, `no collector for platform "nope"`) {
		t.Errorf("odd: %q", odd.Error)
	}
	if got := *sent["up"]; len(got) != 1 || got[0] != "ethtool -a eth0" {
		t.Errorf("only the allowlisted command may reach the device, sent %q", got)
	}
	if len(up.Transcript) != 3 {
		t.Fatalf("transcript %+v", up.Transcript)
	}
	for _, ex := range up.Transcript[1:] {
		if ex.ExitCode != -1 || !strings.Contains(ex.Error, "allowlist") {
			t.Errorf("refusal not recorded: %+v", ex)
		}
	}
	if !snap.Simulated || progress.Load() != 3 {
		t.Errorf("simulated=%v progress=%d", snap.Simulated, progress.Load())
	}
}

func TestAllowlist(t *testing.T) {
	al := NewAllowlist("ethtool -a {if}", "cat /sys/class/infiniband/{dev}/tc/{port}/traffic_class", "show interfaces | json")
	for cmd, want := range map[string]bool{
		"ethtool -a ens1f0np0":                                true,
		"sudo -n ethtool -a ens1f0np0.100":                    true,
		"ethtool -a ens1f0np0; reboot":                        false,
		"ethtool -a $(reboot)":                                false,
		"ethtool -a a b":                                      false,
		"ethtool -A ens1f0np0 rx off":                         false,
		"cat /sys/class/infiniband/mlx5_0/tc/1/traffic_class": true,
		"cat /sys/class/infiniband/../tc/1/traffic_class":     false,
		"cat /sys/class/infiniband/mlx5_0/tc/x/traffic_class": false,
		"show interfaces | json":                              true,
		"show interfaces | json | tee x":                      false,
		"show interfaces":                                     false,
		"show interfaces | json\n":                            false,
		"ethtool -a ":                                         false,
	} {
		for pass := range 2 { // the second answer is the remembered verdict
			if got := al.Allows(cmd); got != want {
				t.Errorf("pass %d: Allows(%q) = %v, want %v", pass, cmd, got, want)
			}
		}
	}
	if _, err := Expand("ethtool -a {if}", map[string]string{"if": "eth0|x"}); err == nil {
		t.Error("Expand must reject shell metacharacters")
	}
	if got, err := Expand("ethtool -a {if}", map[string]string{"if": "eth0"}); err != nil || got != "ethtool -a eth0" {
		t.Errorf("Expand: %q %v", got, err)
	}
}

// Expand fills every placeholder, each as often as it appears, and fails on one it has no
// value for, on an unterminated brace and on any invalid value, used or not, however often
// a valid one was seen before.
func TestExpand(t *testing.T) {
	vars := map[string]string{"if": "eth0", "dev": "mlx5_0", "port": "1"}
	for tmpl, want := range map[string]string{
		"grep /sys/class/net/{if}/a /sys/class/net/{if}/b": "grep /sys/class/net/eth0/a /sys/class/net/eth0/b",
		"cat /sys/class/infiniband/{dev}/tc/{port}/x":      "cat /sys/class/infiniband/mlx5_0/tc/1/x",
		"rdma link show": "rdma link show",
		"cat {n}":        "",
		"awk '{print}'":  "",
		"cat {if":        "",
		"cat {{if}}":     "",
	} {
		for pass := range 2 {
			got, err := Expand(tmpl, vars)
			if got != want || (err == nil) != (want != "") {
				t.Errorf("pass %d: Expand(%q) = %q, %v; want %q", pass, tmpl, got, err, want)
			}
		}
	}
	if _, err := Expand("rdma link show", map[string]string{"if": "eth0", "dev": "a;reboot"}); err == nil {
		t.Error("an invalid value the template does not use is still refused")
	}
}

// A device that took the login is reachable even when its session then failed; the error is
// its facts' error.
func TestLoggedInDialFailureIsReachable(t *testing.T) {
	reg := NewRegistry(fake(fakePlatform{}))
	inv := &inventory.Inventory{Recipe: recipe.Default(), Devices: []inventory.DeviceSpec{
		{Name: "mute", Platform: "fake", Role: topology.RoleHost},
		{Name: "down", Platform: "fake", Role: topology.RoleHost},
	}}
	snap, err := Collect(context.Background(), inv, reg, fakeDialer{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mute, down := snap.Devices[0], snap.Devices[1]
	if !mute.Reachable || mute.Error != "opening the CLI: no prompt matching #$" {
		t.Errorf("mute: reachable=%v %q", mute.Reachable, mute.Error)
	}
	if down.Reachable {
		t.Errorf("down: reachable, %q", down.Error)
	}
	if LoggedIn(nil) != nil {
		t.Error("LoggedIn(nil) != nil")
	}
}
