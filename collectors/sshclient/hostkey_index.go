package sshclient

import (
	"bufio"
	"bytes"
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"strings"
	"sync"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

// knownDB answers as x/crypto's knownhosts callback does, for the same file, without its scan
// of every line per question: lines whose patterns are plain host names (or [host]:port) are
// found in a map by address; only hashed (|1|), wildcard and negated patterns and marked
// (@cert-authority) lines stay in a list scanned as knownhosts scans it. A dial asks twice
// (algorithms, then the key), so with one line per device the scan made a run quadratic in
// fabric size. TestKnownDBAnswersAsKnownhosts holds the two to the same answers.
type knownDB struct {
	mu      sync.RWMutex // appendLine against the dials' questions
	file    string
	nlines  int                             // lines read (as bufio.Scanner counts them), blank and comment ones included
	byAddr  map[khAddr][]int                // indexes into lines, in file order
	scanned []int                           // lines not in byAddr, in file order
	lines   []khLine                        // every host line (not @revoked), in file order
	revoked map[string]*knownhosts.KnownKey // by plain key blob
}

type khAddr struct{ host, port string }

// String is knownhosts' spelling of an address, which hashed entries hash (after Normalize).
func (a khAddr) String() string {
	h := a.host
	if strings.Contains(h, ":") {
		h = "[" + h + "]"
	}
	return h + ":" + a.port
}

type khLine struct {
	cert  bool
	hosts []khPattern // nil for a hashed entry
	hash  *khHashed
	known knownhosts.KnownKey
}

type khPattern struct {
	negate bool
	addr   khAddr
}

type khHashed struct{ salt, hash []byte }

func (l *khLine) match(a khAddr) bool {
	if l.hash != nil {
		return bytes.Equal(khHash(knownhosts.Normalize(a.String()), l.hash.salt), l.hash.hash)
	}
	matched := false
	for _, p := range l.hosts {
		if !khWildcard(p.addr.host, a.host) || p.addr.port != a.port {
			continue
		}
		if p.negate {
			return false
		}
		matched = true
	}
	return matched
}

// loadKnownDB reads file as knownhosts.New does: blank and # lines skipped, unparsable lines
// skipped unless no line parses.
func loadKnownDB(file string) (*knownDB, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	db, err := readKnownDB(f, file)
	if err != nil {
		return nil, err
	}
	return db, nil
}

func readKnownDB(r io.Reader, filename string) (*knownDB, error) {
	db := &knownDB{file: filename, byAddr: map[khAddr][]int{}, revoked: map[string]*knownhosts.KnownKey{}}
	sc := bufio.NewScanner(r)
	var firstErr error
	firstErrLine, valid, lineNum := 0, 0, 0
	for sc.Scan() {
		lineNum++
		line := bytes.Trim(sc.Bytes(), " \t")
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		if err := db.add(line, filename, lineNum); err != nil {
			if firstErr == nil {
				firstErr, firstErrLine = err, lineNum
			}
			continue
		}
		valid++
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if valid == 0 && firstErr != nil {
		return nil, fmt.Errorf("knownhosts: %s: no valid entries, line %d: %w", filename, firstErrLine, firstErr)
	}
	db.nlines = lineNum
	return db, nil
}

// appendLine adds line as the file's next line, as a parse of the longer file would.
func (db *knownDB) appendLine(line string) error {
	db.mu.Lock()
	defer db.mu.Unlock()
	db.nlines++
	return db.add(bytes.Trim([]byte(line), " \t"), db.file, db.nlines)
}

func (db *knownDB) add(line []byte, filename string, lineNum int) error {
	marker, pattern, key, err := khParseLine(line)
	if err != nil {
		return err
	}
	kk := knownhosts.KnownKey{Key: key, Filename: filename, Line: lineNum}
	if marker == "@revoked" {
		db.revoked[khPlainBlob(key)] = &kk
		return nil
	}
	l := khLine{cert: marker == "@cert-authority", known: kk}
	if pattern[0] == '|' {
		if l.hash, err = khNewHashed(pattern); err != nil {
			return err
		}
	} else if l.hosts, err = khPatterns(pattern); err != nil {
		return err
	}
	i := len(db.lines)
	db.lines = append(db.lines, l)
	if l.cert || l.hash != nil || len(l.hosts) == 0 || !l.plain() {
		db.scanned = append(db.scanned, i)
		return nil
	}
	for j, p := range l.hosts {
		if !slices.ContainsFunc(l.hosts[:j], func(q khPattern) bool { return q.addr == p.addr }) {
			db.byAddr[p.addr] = append(db.byAddr[p.addr], i)
		}
	}
	return nil
}

// plain: every pattern a literal address, so the line matches exactly those addresses.
func (l *khLine) plain() bool {
	for _, p := range l.hosts {
		if p.negate || strings.ContainsAny(p.addr.host, "*?") {
			return false
		}
	}
	return true
}

// matching lists, in file order, the lines that match a.
func (db *knownDB) matching(a khAddr) []int {
	idx := db.byAddr[a]
	var more []int
	for _, i := range db.scanned {
		if db.lines[i].match(a) {
			more = append(more, i)
		}
	}
	if len(more) == 0 {
		return idx
	}
	out := append(slices.Clone(idx), more...)
	slices.Sort(out)
	return out
}

// checkAddr is knownhosts' hostKeyDB.checkAddr.
func (db *knownDB) checkAddr(a khAddr, key ssh.PublicKey) error {
	db.mu.RLock()
	defer db.mu.RUnlock()
	keyErr := &knownhosts.KeyError{}
	blob := key.Marshal()
	for _, i := range db.matching(a) {
		l := &db.lines[i]
		keyErr.Want = append(keyErr.Want, l.known)
		if bytes.Equal(l.known.Key.Marshal(), blob) {
			return nil
		}
	}
	return keyErr
}

// check is knownhosts' hostKeyDB.check (plain keys).
func (db *knownDB) check(address string, remote net.Addr, key ssh.PublicKey) error {
	db.mu.RLock()
	r := db.revoked[khPlainBlob(key)]
	db.mu.RUnlock()
	if r != nil {
		return &knownhosts.RevokedError{Revoked: *r}
	}
	host, port, err := net.SplitHostPort(remote.String())
	if err != nil {
		return fmt.Errorf("knownhosts: SplitHostPort(%s): %w", remote, err)
	}
	a := khAddr{host, port}
	if address != "" {
		host, port, err := net.SplitHostPort(address)
		if err != nil {
			return fmt.Errorf("knownhosts: SplitHostPort(%s): %w", address, err)
		}
		a = khAddr{host, port}
	}
	return db.checkAddr(a, key)
}

func (db *knownDB) isHostAuthority(remote ssh.PublicKey, address string) bool {
	h, p, err := net.SplitHostPort(address)
	if err != nil {
		return false
	}
	a := khAddr{h, p}
	blob := remote.Marshal()
	db.mu.RLock()
	defer db.mu.RUnlock()
	for _, i := range db.scanned { // every @cert-authority line is in scanned
		l := &db.lines[i]
		if l.cert && bytes.Equal(l.known.Key.Marshal(), blob) && l.match(a) {
			return true
		}
	}
	return false
}

func (db *knownDB) isRevoked(c *ssh.Certificate) bool {
	db.mu.RLock()
	defer db.mu.RUnlock()
	return db.revoked[khPlainBlob(c)] != nil || db.revoked[khPlainBlob(c.SignatureKey)] != nil
}

// callback is what knownhosts.New returns: certificates checked against @cert-authority
// lines, plain keys by check.
func (db *knownDB) callback() ssh.HostKeyCallback {
	c := &ssh.CertChecker{IsHostAuthority: db.isHostAuthority, IsRevoked: db.isRevoked, HostKeyFallback: db.check}
	return c.CheckHostKey
}

// The rest follows knownhosts' parser line for line.

func khPlainBlob(key ssh.PublicKey) string {
	if c, ok := key.(*ssh.Certificate); ok {
		return string(c.Key.Marshal())
	}
	return string(key.Marshal())
}

func khNextWord(line []byte) (string, []byte) {
	i := bytes.IndexAny(line, "\t ")
	if i == -1 {
		return string(line), nil
	}
	return string(line[:i]), bytes.Trim(line[i:], " \t")
}

func khParseLine(line []byte) (marker, host string, key ssh.PublicKey, err error) {
	if w, next := khNextWord(line); w == "@cert-authority" || w == "@revoked" {
		marker, line = w, next
	}
	host, line = khNextWord(line)
	if len(host) > 0 && host[0] == '@' {
		return "", "", nil, fmt.Errorf("knownhosts: unexpected marker: %q", host)
	}
	if len(line) == 0 {
		return "", "", nil, errors.New("knownhosts: missing host pattern")
	}
	wantType, line := khNextWord(line)
	if len(line) == 0 {
		return "", "", nil, errors.New("knownhosts: missing key type pattern")
	}
	keyBlob, _ := khNextWord(line)
	raw, err := base64.StdEncoding.DecodeString(keyBlob)
	if err != nil {
		return "", "", nil, fmt.Errorf("knownhosts: key: %w", err)
	}
	if key, err = ssh.ParsePublicKey(raw); err != nil {
		return "", "", nil, fmt.Errorf("knownhosts: key: %w", err)
	}
	if key.Type() != wantType {
		return "", "", nil, fmt.Errorf("knownhosts: key type mismatch: found %q, want %q", key.Type(), wantType)
	}
	return marker, host, key, nil
}

func khPatterns(pattern string) ([]khPattern, error) {
	var out []khPattern
	for p := range strings.SplitSeq(pattern, ",") {
		if p == "" {
			continue
		}
		var hp khPattern
		if p[0] == '!' {
			hp.negate, p = true, p[1:]
		}
		if p == "" {
			return nil, errors.New("knownhosts: negation without following hostname")
		}
		var err error
		if p[0] == '[' {
			if hp.addr.host, hp.addr.port, err = net.SplitHostPort(p); err != nil {
				return nil, fmt.Errorf("knownhosts: %w", err)
			}
		} else if hp.addr.host, hp.addr.port, err = net.SplitHostPort(p); err != nil {
			hp.addr = khAddr{p, "22"}
		}
		out = append(out, hp)
	}
	return out, nil
}

func khNewHashed(encoded string) (*khHashed, error) {
	parts := strings.Split(encoded, "|")
	if len(parts) != 4 {
		return nil, fmt.Errorf("knownhosts: got %d components, want 3", len(parts))
	}
	salt, err := base64.StdEncoding.DecodeString(parts[2])
	if err != nil {
		return nil, fmt.Errorf("knownhosts: salt: %w", err)
	}
	hash, err := base64.StdEncoding.DecodeString(parts[3])
	if err != nil {
		return nil, fmt.Errorf("knownhosts: hash: %w", err)
	}
	if parts[1] != "1" {
		return nil, fmt.Errorf("knownhosts: got hash type %s, must be '1'", parts[1])
	}
	return &khHashed{salt: salt, hash: hash}, nil
}

func khHash(host string, salt []byte) []byte {
	mac := hmac.New(sha1.New, salt)
	mac.Write([]byte(host))
	return mac.Sum(nil)
}

// khWildcard is OpenSSH's match (as knownhosts has it): * and ? with no regard for separators.
func khWildcard(pat, str string) bool {
	for range len(pat) + 1 { // each turn consumes one byte of pat, or returns
		if pat == "" {
			return str == ""
		}
		if str == "" {
			return false
		}
		if pat[0] == '*' {
			if len(pat) == 1 {
				return true
			}
			for j := range len(str) {
				if khWildcard(pat[1:], str[j:]) {
					return true
				}
			}
			return false
		}
		if pat[0] != '?' && pat[0] != str[0] {
			return false
		}
		pat, str = pat[1:], str[1:]
	}
	return false
}
