package inventory

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"time"
	"unicode"

	"gopkg.in/yaml.v3"
)

// connKeys are the connection settings `defaults:` and every device may set.
var connKeys = []string{"user", "port", "identity_file", "known_hosts", "timeout", "sudo", "jump", "password_env"}

// Built-in connection defaults; user comes from the environment.
const (
	defaultPort       = 22
	defaultKnownHosts = "~/.ssh/known_hosts"
	defaultTimeout    = 20 * time.Second
)

// connHints explain the keys people reach for that the inventory refuses on purpose.
func connHints() map[string]string {
	return map[string]string{
		"password": "literal passwords are not accepted in an inventory file; set password_env: VAR and export the password in $VAR",
	}
}

var envVarName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// connSettings are the connection keys one mapping set; nil means "not set here".
type connSettings struct {
	User, IdentityFile, KnownHosts, Jump, PasswordEnv *string
	Port                                              *int
	Timeout                                           *time.Duration
	Sudo                                              *bool
}

func set[T any](dst **T, v T, ok bool) {
	if ok {
		*dst = &v
	}
}

// conn reads the connection keys of a mapping. File paths are resolved here, against the
// inventory's directory, so that a value inherited from defaults means the same file
// wherever it is used.
func (p *parser) conn(m map[string]field) connSettings {
	var c connSettings
	if f, ok := m["user"]; ok {
		v, ok := p.str(f.val, "user", "an SSH user name")
		if ok && !safeWord(v) {
			p.errorf(f.val, "user: %q is not a user name (expected no spaces and no leading -)", v)
			ok = false
		}
		set(&c.User, v, ok)
	}
	if f, ok := m["port"]; ok {
		v, ok := p.integer(f.val, "port", 1, 65535, "a TCP port 1..65535")
		set(&c.Port, v, ok)
	}
	if f, ok := m["identity_file"]; ok {
		// "ssh-agent" (or empty) means agent keys only, so it may clear an inherited file; it
		// is a word, not a file beside the inventory.
		if w := f.val.Value; f.val.Kind == yaml.ScalarNode && (w == "ssh-agent" || w == "agent") {
			empty := ""
			c.IdentityFile = &empty
		} else {
			v, ok := p.pathValue(f, true)
			set(&c.IdentityFile, v, ok)
		}
	}
	if f, ok := m["known_hosts"]; ok {
		v, ok := p.pathValue(f, false)
		set(&c.KnownHosts, v, ok)
	}
	if f, ok := m["timeout"]; ok {
		v, ok := p.duration(f.val, "timeout")
		set(&c.Timeout, v, ok)
	}
	if f, ok := m["sudo"]; ok {
		v, ok := p.boolean(f.val, "sudo")
		set(&c.Sudo, v, ok)
	}
	if f, ok := m["jump"]; ok {
		// Empty clears a jump host inherited from defaults.
		v, ok := p.str(f.val, "jump", "[user@]host[:port] of a jump host")
		if ok && v != "" && !safeWord(v) {
			p.errorf(f.val, "jump: %q is not a jump host (expected [user@]host[:port], no spaces)", v)
			ok = false
		}
		set(&c.Jump, v, ok)
	}
	if f, ok := m["password_env"]; ok {
		v, ok := p.str(f.val, "password_env", "the name of an environment variable")
		if ok && v != "" && !envVarName.MatchString(v) {
			// Not quoted: a value that is no variable name is likely the password itself.
			p.errorf(f.val, "password_env: the value is not an environment variable name (expected letters, digits and _, e.g. SWITCH_PASSWORD; it is not shown, in case it is the password)")
			ok = false
		}
		set(&c.PasswordEnv, v, ok)
	}
	return c
}

// safeWord rejects what would be mistaken for an option or split into several words.
func safeWord(s string) bool {
	return s != "" && !strings.HasPrefix(s, "-") && !strings.ContainsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r)
	})
}

func (p *parser) pathValue(f field, emptyOK bool) (string, bool) {
	key := f.key.Value
	v, ok := p.str(f.val, key, "a file path")
	if !ok {
		return "", false
	}
	if v == "" && !emptyOK {
		p.errorf(f.val, "%s: empty (expected a file path)", key)
		return "", false
	}
	path, err := p.resolvePath(v)
	if err != nil {
		p.errorf(f.val, "%s: %v", key, err)
		return "", false
	}
	return path, true
}

// resolvePath expands a leading ~ and makes a relative path relative to the inventory's
// directory, so that a lab directory can say `known_hosts: known_hosts`.
func (p *parser) resolvePath(v string) (string, error) {
	if v == "" {
		return "", nil
	}
	if v == "~" || strings.HasPrefix(v, "~/") {
		home, err := p.env.home()
		if err != nil || home == "" {
			return "", fmt.Errorf("cannot expand ~ in %q: no home directory (%v)", v, err)
		}
		v = filepath.Join(home, v[1:])
	} else if strings.HasPrefix(v, "~") {
		return "", fmt.Errorf("%q: only ~/ is expanded, not ~user (expected ~/..., an absolute path or a path relative to the inventory)", v)
	}
	if !filepath.IsAbs(v) {
		v = filepath.Join(p.dir, v)
	}
	return filepath.Clean(v), nil
}

// over returns c with every setting of o that is set.
func (c connSettings) over(o connSettings) connSettings {
	pick := func(a, b *string) *string {
		if b != nil {
			return b
		}
		return a
	}
	c.User, c.IdentityFile, c.KnownHosts = pick(c.User, o.User), pick(c.IdentityFile, o.IdentityFile), pick(c.KnownHosts, o.KnownHosts)
	c.Jump, c.PasswordEnv = pick(c.Jump, o.Jump), pick(c.PasswordEnv, o.PasswordEnv)
	if o.Port != nil {
		c.Port = o.Port
	}
	if o.Timeout != nil {
		c.Timeout = o.Timeout
	}
	if o.Sudo != nil {
		c.Sudo = o.Sudo
	}
	return c
}

// builtinConn is the built-in defaults. User and port stay unset here: a device that does
// not set them gets $USER and 22 only after ~/.ssh/config has had its say, as with OpenSSH
// (see Connection.UserDefault). A value the environment cannot supply ($USER, the home
// directory) is only an error for a device that does not set it.
func (p *parser) builtinConn() (connSettings, map[string]error) {
	timeout, sudo, empty := defaultTimeout, false, ""
	c := connSettings{Timeout: &timeout, Sudo: &sudo, IdentityFile: &empty, Jump: &empty, PasswordEnv: &empty}
	missing := map[string]error{}
	if p.env.user() == "" {
		missing["user"] = errors.New("no SSH user: $USER is not set (set user: in defaults or on the device)")
	}
	if kh, err := p.resolvePath(defaultKnownHosts); err == nil {
		c.KnownHosts = &kh
	} else {
		missing["known_hosts"] = fmt.Errorf("known_hosts: default %s: %w (set known_hosts: in defaults or on the device)", defaultKnownHosts, err)
	}
	return c, missing
}

// connection turns fully merged settings into a Connection; nil fields here are exactly the
// built-in defaults the inventory does not write (user, port) or the environment could not
// supply (known_hosts).
func (c connSettings) connection(env inventoryEnv) Connection {
	str := func(s *string) string {
		if s == nil {
			return ""
		}
		return *s
	}
	conn := Connection{
		User: str(c.User), IdentityFile: str(c.IdentityFile), KnownHosts: str(c.KnownHosts),
		Timeout: *c.Timeout, Sudo: *c.Sudo, Jump: str(c.Jump), PasswordEnv: str(c.PasswordEnv),
	}
	if c.User == nil {
		conn.User, conn.UserDefault = env.user(), true
	}
	if c.Port == nil {
		conn.Port, conn.PortDefault = defaultPort, true
	} else {
		conn.Port = *c.Port
	}
	return conn
}
