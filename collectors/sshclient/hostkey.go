package sshclient

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

// knownHostsMu serialises trust-on-first-use appends from concurrent dials in this process.
var knownHostsMu sync.Mutex

// hostKeys checks host keys against one known_hosts file.
type hostKeys struct {
	file  string
	tofu  bool
	db    ssh.HostKeyCallback // nil when the file does not exist yet: every host is unknown
	probe ssh.PublicKey       // a throwaway key that matches nothing, to list known keys
}

func newHostKeys(file string, tofu bool) (*hostKeys, error) {
	if file == "" {
		return nil, fmt.Errorf("ssh: no known_hosts file configured; strict host-key checking needs one")
	}
	h := &hostKeys{file: file, tofu: tofu}
	db, err := loadKnownHosts(file)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("known_hosts %s: %w", file, err)
	default:
		h.db = db
	}
	if h.probe, err = probeKey(); err != nil {
		return nil, fmt.Errorf("ssh: probe key: %w", err)
	}
	return h, nil
}

// knownHostsDBs shares one parse of each known_hosts file among the dials of a run, until
// the file changes (a trust-on-first-use append, an edit). Parsed per dial, a fabric of N
// devices with an N-line file cost N² line parses: 7% of a 1,000-device audit's CPU in its
// profile, and the largest share at 10,000.
var knownHostsDBs = struct {
	sync.Mutex
	m map[string]parsedKnownHosts
}{m: map[string]parsedKnownHosts{}}

type parsedKnownHosts struct {
	size  int64
	mtime time.Time
	kdb   *knownDB            // grows by this process's own appends (appendKnownHost)
	db    ssh.HostKeyCallback // kdb's: safe for concurrent dials
}

// A parse is indexed by address (knownDB), as each dial asks it twice: scanned line by line
// as knownhosts does, 10,000 lines cost a dial 517 µs, indexed 2.3 µs (BenchmarkKnownHosts).
func loadKnownHosts(file string) (ssh.HostKeyCallback, error) {
	st, err := os.Stat(file)
	if err != nil {
		return nil, err
	}
	knownHostsDBs.Lock()
	defer knownHostsDBs.Unlock() // concurrent first dials wait for the one parse
	if c, ok := knownHostsDBs.m[file]; ok && c.size == st.Size() && c.mtime.Equal(st.ModTime()) {
		return c.db, nil
	}
	kdb, err := loadKnownDB(file)
	if err != nil {
		return nil, err
	}
	db := kdb.callback()
	knownHostsDBs.m[file] = parsedKnownHosts{size: st.Size(), mtime: st.ModTime(), kdb: kdb, db: db}
	return db, nil
}

// probeKey is a throwaway key that matches nothing, made once per process.
var probeKey = sync.OnceValues(func() (ssh.PublicKey, error) {
	pub, _, err := ed25519.GenerateKey(nil)
	if err != nil {
		return nil, err
	}
	return ssh.NewPublicKey(pub)
})

// known lists the keys known_hosts holds for addr ("host:port").
func (h *hostKeys) known(addr string) []knownhosts.KnownKey {
	if h.db == nil {
		return nil
	}
	var ke *knownhosts.KeyError
	if errors.As(h.db(addr, placeholderAddr{}, h.probe), &ke) {
		return ke.Want
	}
	return nil
}

// algorithms restricts negotiation to the types of the keys we know for addr, so the server
// is not asked for a key type we could only report as a mismatch. Nil means no restriction.
func (h *hostKeys) algorithms(addr string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(algos ...string) {
		for _, a := range algos {
			if !seen[a] {
				seen[a] = true
				out = append(out, a)
			}
		}
	}
	for _, k := range h.known(addr) {
		if k.Key.Type() == ssh.KeyAlgoRSA {
			// One RSA key signs with any of these; plain ssh-rsa (SHA-1) last, for old NOSes.
			add(ssh.KeyAlgoRSASHA512, ssh.KeyAlgoRSASHA256, ssh.KeyAlgoRSA)
			continue
		}
		add(k.Key.Type())
	}
	return out
}

// callback returns the HostKeyCallback for one connection; the error it produced is kept
// in *last because the handshake may only report it as text.
func (h *hostKeys) callback(last *error) ssh.HostKeyCallback {
	return func(hostname string, remote net.Addr, key ssh.PublicKey) error {
		err := h.check(hostname, remote, key)
		*last = err
		return err
	}
}

func (h *hostKeys) check(hostname string, remote net.Addr, key ssh.PublicKey) error {
	var err error = &knownhosts.KeyError{}
	if h.db != nil {
		err = h.db(hostname, remote, key)
	}
	if err == nil {
		return nil
	}
	host := knownhosts.Normalize(hostname)
	fp := ssh.FingerprintSHA256(key)
	var ke *knownhosts.KeyError
	var re *knownhosts.RevokedError
	switch {
	case errors.As(err, &ke) && len(ke.Want) > 0:
		return &HostKeyError{Host: host, KeyType: key.Type(), Fingerprint: fp, Want: ke.Want}
	case errors.As(err, &ke) && h.tofu:
		if aerr := appendKnownHost(h.file, host, key); aerr != nil {
			return fmt.Errorf("trust on first use: %w", aerr)
		}
		return nil
	case errors.As(err, &ke):
		return fmt.Errorf("%w: %s offered %s key %s, which is not in %s; verify it and add it "+
			"(ssh-keyscan), or run with --trust-on-first-use", ErrUnknownHost, host, key.Type(), fp, h.file)
	case errors.As(err, &re):
		return fmt.Errorf("%w: %s offered %s key %s, revoked in %s:%d", ErrHostKey, host,
			key.Type(), fp, re.Revoked.Filename, re.Revoked.Line)
	default:
		return fmt.Errorf("host key check %s: %w", host, err)
	}
}

// appendKnownHost records key for host ("host" or "[host]:port"), creating the file 0600, and
// adds the line to this process's parse of the file when that parse was of the file as it
// was just before: a first run under trust on first use changes the file once per device,
// and parsing it again each time (reading it whole to see its last byte, too) made that run
// quadratic, 1 s of CPU over 1,000 new hosts (BenchmarkTrustOnFirstUse).
func appendKnownHost(file, host string, key ssh.PublicKey) error {
	knownHostsMu.Lock()
	defer knownHostsMu.Unlock()
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return fmt.Errorf("known_hosts dir: %w", err)
	}
	entry := knownhosts.Line([]string{host}, key)
	line := entry + "\n"
	f, err := os.OpenFile(file, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("known_hosts: %w", err)
	}
	before, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("known_hosts %s: %w", file, err)
	}
	// Keep the new entry on its own line if the file lacks a final newline.
	if n := before.Size(); n > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, n-1); err != nil {
			f.Close()
			return fmt.Errorf("known_hosts %s: %w", file, err)
		}
		if last[0] != '\n' {
			line = "\n" + line
		}
	}
	if _, err := f.WriteString(line); err != nil {
		f.Close()
		return fmt.Errorf("known_hosts %s: %w", file, err)
	}
	after, err := f.Stat()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("known_hosts %s: %w", file, err)
	}
	knownHostsDBs.Lock()
	defer knownHostsDBs.Unlock()
	c, ok := knownHostsDBs.m[file]
	switch {
	case !ok:
	case c.size == before.Size() && c.mtime.Equal(before.ModTime()) && after.Size() == before.Size()+int64(len(line)):
		if err := c.kdb.appendLine(entry); err != nil {
			return fmt.Errorf("known_hosts %s: %w", file, err)
		}
		c.size, c.mtime = after.Size(), after.ModTime()
		knownHostsDBs.m[file] = c
	default: // changed by someone else too: parse it again on the next dial
		delete(knownHostsDBs.m, file)
	}
	return nil
}

// placeholderAddr satisfies knownhosts' remote-address argument when only the hostname
// matters (knownhosts prefers the hostname when one is given).
type placeholderAddr struct{}

func (placeholderAddr) Network() string { return "tcp" }
func (placeholderAddr) String() string  { return "0.0.0.0:0" }
