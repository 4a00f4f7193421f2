package sshclient

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/inventory"
)

func TestConfigFor(t *testing.T) {
	isolate(t)
	home := os.Getenv("HOME")
	al := collectors.NewAllowlist("true")
	spec := inventory.DeviceSpec{Name: "gpu01", Address: "10.0.0.11", Conn: inventory.Connection{
		User: "netops", Port: 2222, IdentityFile: "~/.ssh/id_ed25519", Timeout: 7 * time.Second,
		Sudo: true, Jump: "bastion", PasswordEnv: "PW",
	}}
	got := ConfigFor(spec, al, true)
	want := Config{Host: "10.0.0.11", Port: 2222, User: "netops", IdentityFile: "~/.ssh/id_ed25519",
		UseAgent: true, KnownHostsFile: DefaultKnownHosts, TrustOnFirstUse: true, Timeout: 7 * time.Second,
		Sudo: true, Jump: "bastion", PasswordEnv: "PW", Allowlist: al, MaxSessions: DefaultMaxSessions}
	if got != want {
		t.Errorf("ConfigFor =\n%+v\nwant\n%+v", got, want)
	}

	// Address falls back to the name; built-in user and port give way to ~/.ssh/config, which
	// is used when present.
	if err := os.MkdirAll(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".ssh", "config"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	spec = inventory.DeviceSpec{Name: "leaf1", Conn: inventory.Connection{User: "me", UserDefault: true, Port: 22, PortDefault: true, KnownHosts: "/kh"}}
	got = ConfigFor(spec, al, false)
	if got.Host != "leaf1" || got.User != "" || got.Port != 0 || got.KnownHostsFile != "/kh" ||
		got.SSHConfigFile != filepath.Join(home, ".ssh", "config") {
		t.Errorf("ConfigFor = %+v", got)
	}
}

func TestParseJump(t *testing.T) {
	for in, want := range map[string]Endpoint{
		"bastion":              {Host: "bastion"},
		"ops@bastion":          {User: "ops", Host: "bastion"},
		"ops@bastion:2200":     {User: "ops", Host: "bastion", Port: 2200},
		"[::1]:2200":           {Host: "::1", Port: 2200},
		"me@corp@jump.example": {User: "me@corp", Host: "jump.example"},
	} {
		got, err := parseJump(in)
		if err != nil || got != want {
			t.Errorf("parseJump(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "ops@", "host:0", "host:x", "a b"} {
		if _, err := parseJump(bad); err == nil {
			t.Errorf("parseJump(%q) accepted", bad)
		}
	}
}

func TestResolveJumpChainAndDefaults(t *testing.T) {
	isolate(t)
	r, err := resolve(Config{Host: "10.0.0.1", User: "netops", Jump: "a@j1:2201, j2", KnownHostsFile: "~/kh"})
	if err != nil {
		t.Fatal(err)
	}
	want := []Endpoint{{User: "a", Host: "j1", Port: 2201}, {User: "netops", Host: "j2", Port: 22}}
	if len(r.jumps) != 2 || r.jumps[0] != want[0] || r.jumps[1] != want[1] {
		t.Errorf("jumps = %+v", r.jumps)
	}
	if r.target.Port != 22 || r.Timeout != DefaultTimeout || r.MaxSessions != DefaultMaxSessions ||
		r.KnownHostsFile != filepath.Join(os.Getenv("HOME"), "kh") {
		t.Errorf("defaults: %+v", r)
	}
}

func TestResolveProxyJumpFromSSHConfig(t *testing.T) {
	isolate(t)
	conf := filepath.Join(t.TempDir(), "config")
	body := "Host leaf*\n  ProxyJump ops@bastion:2200\nHost bastion\n  HostName 127.0.0.1\nHost direct\n  ProxyJump none\n"
	if err := os.WriteFile(conf, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := resolve(Config{Host: "leaf1", User: "netops", SSHConfigFile: conf})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.jumps) != 1 || r.jumps[0] != (Endpoint{User: "ops", Host: "127.0.0.1", Port: 2200}) {
		t.Errorf("jumps = %+v", r.jumps)
	}
	// The inventory's jump wins; "none" disables.
	r, _ = resolve(Config{Host: "leaf1", User: "netops", Jump: "other", SSHConfigFile: conf})
	if len(r.jumps) != 1 || r.jumps[0].Host != "other" {
		t.Errorf("inventory jump: %+v", r.jumps)
	}
	r, _ = resolve(Config{Host: "direct", User: "netops", SSHConfigFile: conf})
	if len(r.jumps) != 0 {
		t.Errorf("ProxyJump none: %+v", r.jumps)
	}
}
