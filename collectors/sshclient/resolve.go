package sshclient

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/user"
	"strconv"
	"strings"

	"github.com/kevinburke/ssh_config"
)

// Endpoint is one SSH hop after defaults and ~/.ssh/config have been applied.
type Endpoint struct {
	User string
	Host string
	Port int
}

func (e Endpoint) addr() string { return net.JoinHostPort(e.Host, strconv.Itoa(e.Port)) }

func (e Endpoint) String() string { return e.User + "@" + e.addr() }

// resolved is a Config with every default filled in.
type resolved struct {
	Config
	target Endpoint
	jumps  []Endpoint
}

// sshConfig answers ~/.ssh/config look-ups; a nil *sshConfig answers nothing.
type sshConfig struct{ cfg *ssh_config.Config }

// sshConfigs are the ~/.ssh/config files parsed in this run (see parsedFile): every dial
// and every jump host asks it.
var sshConfigs parsedFile[*ssh_config.Config]

// includesNoFile is a config whose parse may be shared: one with an Include reads other
// files, which its own bytes do not vouch for.
func includesNoFile(b []byte) bool { return !bytes.Contains(bytes.ToLower(b), []byte("include")) }

func loadSSHConfig(path string) (*sshConfig, error) {
	if path == "" {
		return nil, nil
	}
	c, err := sshConfigs.load(expandHome(path), func(b []byte) (*ssh_config.Config, error) {
		return ssh_config.Decode(bytes.NewReader(b))
	}, includesNoFile)
	var pe parseError
	switch {
	case errors.As(err, &pe):
		return nil, fmt.Errorf("ssh config %s: %w", path, pe.err)
	case err != nil:
		return nil, fmt.Errorf("ssh config: %w", err)
	}
	return &sshConfig{c}, nil
}

func (s *sshConfig) get(alias, key string) string {
	if s == nil {
		return ""
	}
	v, err := s.cfg.Get(alias, key)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(v)
}

// apply fills what the inventory left empty from ~/.ssh/config's entry for alias.
// HostName always applies: the inventory address may be an alias.
func (s *sshConfig) apply(alias string, e *Endpoint) error {
	if hn := s.get(alias, "HostName"); hn != "" {
		e.Host = strings.ReplaceAll(hn, "%h", alias)
	}
	if e.User == "" {
		e.User = s.get(alias, "User")
	}
	if e.Port == 0 {
		if p := s.get(alias, "Port"); p != "" {
			n, err := strconv.Atoi(p)
			if err != nil || n < 1 || n > 65535 {
				return fmt.Errorf("ssh config: host %s: bad Port %q", alias, p)
			}
			e.Port = n
		}
	}
	return nil
}

func resolve(cfg Config) (*resolved, error) {
	if cfg.Host == "" {
		return nil, fmt.Errorf("ssh: no host given")
	}
	sc, err := loadSSHConfig(cfg.SSHConfigFile)
	if err != nil {
		return nil, err
	}
	r := &resolved{Config: cfg}
	r.target = Endpoint{User: cfg.User, Host: cfg.Host, Port: cfg.Port}
	if err := sc.apply(cfg.Host, &r.target); err != nil {
		return nil, err
	}
	if r.IdentityFile == "" {
		r.IdentityFile = sc.get(cfg.Host, "IdentityFile")
	}
	if r.Jump == "" {
		r.Jump = sc.get(cfg.Host, "ProxyJump")
	}
	if strings.EqualFold(r.Jump, "none") {
		r.Jump = ""
	}
	if r.target.User == "" {
		r.target.User = localUser()
	}
	if r.target.Port == 0 {
		r.target.Port = 22
	}
	if r.Jump != "" {
		for _, hop := range strings.Split(r.Jump, ",") {
			e, err := parseJump(strings.TrimSpace(hop))
			if err != nil {
				return nil, err
			}
			alias := e.Host
			if err := sc.apply(alias, &e); err != nil {
				return nil, err
			}
			if e.User == "" {
				e.User = r.target.User // same credentials as the target
			}
			if e.Port == 0 {
				e.Port = 22
			}
			r.jumps = append(r.jumps, e)
		}
	}
	r.IdentityFile = expandHome(strings.ReplaceAll(r.IdentityFile, "%d", "~"))
	r.KnownHostsFile = expandHome(r.KnownHostsFile)
	if r.Timeout <= 0 {
		r.Timeout = DefaultTimeout
	}
	if r.MaxSessions <= 0 {
		r.MaxSessions = DefaultMaxSessions
	}
	return r, nil
}

// parseJump reads "[user@]host[:port]"; an IPv6 host with a port is written "[::1]:2222".
func parseJump(s string) (Endpoint, error) {
	var e Endpoint
	if s == "" {
		return e, fmt.Errorf("ssh: empty jump host")
	}
	if i := strings.LastIndex(s, "@"); i >= 0 {
		e.User, s = s[:i], s[i+1:]
	}
	host, port, err := net.SplitHostPort(s)
	if err != nil {
		// No port: the whole thing is the host (brackets allowed around IPv6).
		e.Host = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	} else {
		n, perr := strconv.Atoi(port)
		if perr != nil || n < 1 || n > 65535 {
			return e, fmt.Errorf("ssh: jump host %q: bad port", s)
		}
		e.Host, e.Port = host, n
	}
	if e.Host == "" || strings.ContainsAny(e.Host, " /") {
		return e, fmt.Errorf("ssh: jump host %q: bad host", s)
	}
	return e, nil
}

// Effective is where cfg really connects once ~/.ssh/config and the built-in defaults apply:
// the target and each jump host in order (roceaudit plan shows them).
func Effective(cfg Config) (target Endpoint, jumps []Endpoint, err error) {
	r, err := resolve(cfg)
	if err != nil {
		return Endpoint{}, nil, err
	}
	return r.target, r.jumps, nil
}

func localUser() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	return os.Getenv("USER")
}
