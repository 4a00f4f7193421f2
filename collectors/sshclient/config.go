// Package sshclient is roceaudit's SSH transport: one connection per device, strict host-key
// checking, and a Runner that refuses anything off the platform's read-only allowlist before
// it reaches the wire.
package sshclient

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/inventory"
)

const (
	// DefaultTimeout bounds connecting (per hop) and each command when Config.Timeout is 0.
	DefaultTimeout = 20 * time.Second
	// DefaultMaxSessions is how many commands run at once on one connection; OpenSSH's own
	// server default (MaxSessions 10) leaves headroom above it.
	DefaultMaxSessions = 8
	// DefaultKnownHosts is used by ConfigFor when the inventory names no known_hosts file.
	DefaultKnownHosts = "~/.ssh/known_hosts"
)

// Config is how to reach one device. Secrets are never held here: a password is only named
// by the environment variable that holds it.
type Config struct {
	Host            string
	Port            int    // 0: ~/.ssh/config Port, else 22
	User            string // "": ~/.ssh/config User, else the local user
	IdentityFile    string // "~/" is expanded
	UseAgent        bool   // use ssh-agent via SSH_AUTH_SOCK
	KnownHostsFile  string // "~/" is expanded; strict checking against it
	TrustOnFirstUse bool   // record an unknown host's key; a mismatch is still refused
	Timeout         time.Duration
	Sudo            bool
	Jump            string // [user@]host[:port], comma-separated for a chain (ProxyJump)
	PasswordEnv     string // name of the environment variable holding the password
	Allowlist       *collectors.Allowlist
	MaxSessions     int    // default 8
	SSHConfigFile   string // "" disables ~/.ssh/config handling
}

// ConfigFor maps an inventory device to a Config. The agent is always offered (it is only
// used when SSH_AUTH_SOCK is set) and ~/.ssh/config is honoured when it exists.
func ConfigFor(spec inventory.DeviceSpec, al *collectors.Allowlist, tofu bool) Config {
	c := spec.Conn
	cfg := Config{
		Host:            spec.Address,
		Port:            c.Port,
		User:            c.User,
		IdentityFile:    c.IdentityFile,
		UseAgent:        true,
		KnownHostsFile:  c.KnownHosts,
		TrustOnFirstUse: tofu,
		Timeout:         c.Timeout,
		Sudo:            c.Sudo,
		Jump:            c.Jump,
		PasswordEnv:     c.PasswordEnv,
		Allowlist:       al,
		MaxSessions:     DefaultMaxSessions,
	}
	if cfg.Host == "" {
		cfg.Host = spec.Name
	}
	// Built-in defaults the inventory did not write give way to ~/.ssh/config, which resolve
	// reads before falling back to them, as OpenSSH does.
	if c.UserDefault {
		cfg.User = ""
	}
	if c.PortDefault {
		cfg.Port = 0
	}
	if cfg.KnownHostsFile == "" {
		cfg.KnownHostsFile = DefaultKnownHosts
	}
	if home, err := os.UserHomeDir(); err == nil {
		p := filepath.Join(home, ".ssh", "config")
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			cfg.SSHConfigFile = p
		}
	}
	return cfg
}

// expandHome turns a leading "~" or "~/" into the user's home directory.
func expandHome(p string) string {
	if p != "~" && !strings.HasPrefix(p, "~/") {
		return p
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return p
	}
	return filepath.Join(home, strings.TrimPrefix(p, "~"))
}
