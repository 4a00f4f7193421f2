package cli

import (
	"context"
	"errors"
	"testing"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/platforms"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

func TestDialerFromInventorySpec(t *testing.T) {
	f := setup(t, "leaf1#", eosInvalid, eosReplies())
	spec := inventory.DeviceSpec{Name: "leaf1", Role: topology.RoleSwitch, Platform: "eos", Address: "127.0.0.1",
		Conn: inventory.Connection{User: "admin", Port: f.srv.port, IdentityFile: f.cfg.IdentityFile,
			KnownHosts: f.cfg.KnownHostsFile, Timeout: f.cfg.Timeout}}
	sess, err := Dialer{Platforms: platforms.Registry()}.Dial(context.Background(), spec, testAllowlist())
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	defer sess.Close()
	out, err := sess.Run(context.Background(), "show version | json")
	if err != nil || out.Stdout != eosVersionJSON+"\n" {
		t.Fatalf("Run = %+v, %v", out, err)
	}
	if !sess.Simulated() {
		t.Error("Simulated() = false")
	}

	// A failed dial is a nil interface, not a typed nil.
	spec.Platform = "sonic"
	if sess, err := (Dialer{Platforms: platforms.Registry()}).Dial(context.Background(), spec, testAllowlist()); err == nil || sess != nil {
		t.Fatalf("Dial(sonic) = %v, %v", sess, err)
	}
}

// fakeDialer records the devices it was asked for.
type fakeDialer struct{ got []string }

var errFake = errors.New("fake dialer")

func (d *fakeDialer) Dial(_ context.Context, spec inventory.DeviceSpec, _ *collectors.Allowlist) (collectors.Session, error) {
	d.got = append(d.got, spec.Name)
	return nil, errFake
}

func TestMultiDialerRoutesByPlatform(t *testing.T) {
	exec, cli := &fakeDialer{}, &fakeDialer{}
	m := NewMultiDialer(exec, cli, platforms.Registry().Interactive)
	for _, d := range []inventory.DeviceSpec{
		{Name: "h1", Platform: "linux"}, {Name: "s1", Platform: "eos"},
		{Name: "s2", Platform: "sonic"}, {Name: "s3", Platform: "nxos"},
	} {
		if _, err := m.Dial(context.Background(), d, nil); !errors.Is(err, errFake) {
			t.Fatalf("%s: %v", d.Name, err)
		}
	}
	if got, want := exec.got, []string{"h1", "s2"}; !equal(got, want) {
		t.Errorf("exec dialer got %v, want %v", got, want)
	}
	if got, want := cli.got, []string{"s1", "s3"}; !equal(got, want) {
		t.Errorf("cli dialer got %v, want %v", got, want)
	}

	// A custom choice, and a missing dialer is an error rather than a panic.
	exec.got, cli.got = nil, nil
	m = NewMultiDialer(exec, nil, func(p string) bool { return p == "junos" })
	if _, err := m.Dial(context.Background(), inventory.DeviceSpec{Name: "s1", Platform: "eos"}, nil); !errors.Is(err, errFake) {
		t.Fatalf("eos via exec: %v", err)
	}
	if _, err := m.Dial(context.Background(), inventory.DeviceSpec{Name: "j1", Platform: "junos"}, nil); err == nil || errors.Is(err, errFake) {
		t.Fatalf("junos with no cli dialer: %v", err)
	}
	if !equal(exec.got, []string{"s1"}) {
		t.Errorf("exec dialer got %v", exec.got)
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
