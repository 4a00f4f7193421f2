package sshclient

import (
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

func testSigner(t testing.TB) ssh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func hostCert(t testing.TB, ca ssh.Signer, key ssh.PublicKey, principal string) *ssh.Certificate {
	t.Helper()
	c := &ssh.Certificate{Key: key, CertType: ssh.HostCert, ValidPrincipals: []string{principal}, ValidBefore: ssh.CertTimeInfinity}
	if err := c.SignCert(rand.Reader, ca); err != nil {
		t.Fatal(err)
	}
	return c
}

// khOutcome is a callback's answer reduced to what a caller can tell apart.
func khOutcome(err error) string {
	var ke *knownhosts.KeyError
	var re *knownhosts.RevokedError
	switch {
	case err == nil:
		return "ok"
	case errors.As(err, &ke):
		var b strings.Builder
		b.WriteString("keyerror")
		for _, w := range ke.Want {
			fmt.Fprintf(&b, " %s:%d:%s", w.Filename, w.Line, ssh.FingerprintSHA256(w.Key))
		}
		return b.String()
	case errors.As(err, &re):
		return fmt.Sprintf("revoked %s:%d", re.Revoked.Filename, re.Revoked.Line)
	default:
		return "error" // texts differ (wrapping); any other failure is a refusal alike
	}
}

// The index answers every question as knownhosts does, over files mixing plain, [host]:port,
// multi-host, duplicate, hashed, wildcard and negated patterns, @cert-authority and @revoked
// markers, comments and unparsable lines; keys that match, differ, are revoked or are
// certificates.
func TestKnownDBAnswersAsKnownhosts(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(1, 2))
	keys := make([]ssh.Signer, 6)
	for i := range keys {
		keys[i] = testSigner(t)
	}
	hosts := []string{"10.0.0.1", "10.0.0.2", "10.0.1.1", "leaf1", "leaf2", "spine1", "::1", "fe80::2"}
	ports := []string{"22", "2222", "830"}
	addrOf := func(h, p string) string { return net.JoinHostPort(h, p) }
	certs := map[[2]int]*ssh.Certificate{} // signed by key i for host j
	for i, k := range keys {
		for j, h := range hosts {
			certs[[2]int{i, j}] = hostCert(t, k, keys[(i+1)%len(keys)].PublicKey(), h)
		}
	}
	pattern := func() string {
		h, p := hosts[rng.IntN(len(hosts))], ports[rng.IntN(len(ports))]
		var s string
		switch rng.IntN(8) {
		case 0:
			s = knownhosts.HashHostname(knownhosts.Normalize(addrOf(h, p)))
			return s
		case 1:
			s = h[:1+rng.IntN(len(h))] + "*"
		case 2:
			s = strings.Replace(h, h[len(h)-1:], "?", 1)
		default:
			s = h
		}
		if p != "22" || strings.Contains(h, ":") && rng.IntN(2) == 0 {
			s = "[" + s + "]:" + p
		}
		if rng.IntN(6) == 0 {
			s = "!" + s
		}
		return s
	}
	for round := range 40 {
		var b strings.Builder
		for range 4 + rng.IntN(30) {
			k := keys[rng.IntN(len(keys))].PublicKey()
			var pats []string
			for range 1 + rng.IntN(3) {
				p := pattern()
				if strings.HasPrefix(p, "|") && len(pats) > 0 {
					continue // a hashed entry stands alone
				}
				pats = append(pats, p)
				if strings.HasPrefix(p, "|") {
					break
				}
			}
			line := knownhosts.Line(pats, k)
			if strings.HasPrefix(pats[0], "|") {
				line = pats[0] + " " + strings.SplitN(line, " ", 2)[1]
			}
			switch rng.IntN(12) {
			case 0:
				line = "@revoked " + line
			case 1:
				line = "@cert-authority " + line
			case 2:
				line = "# " + line
			case 3:
				line = "garbage " + line[:len(line)/2]
			case 4:
				line = "\t " + line + " comment"
			}
			b.WriteString(line + "\n")
			if rng.IntN(8) == 0 {
				b.WriteString("\n")
			}
		}
		file := filepath.Join(t.TempDir(), "known_hosts")
		if err := os.WriteFile(file, []byte(b.String()), 0o600); err != nil {
			t.Fatal(err)
		}
		want, werr := knownhosts.New(file)
		kdb, gerr := loadKnownDB(file)
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("round %d: knownhosts.New %v, loadKnownDB %v\n%s", round, werr, gerr, b.String())
		}
		if werr != nil {
			continue
		}
		got := kdb.callback()
		for hi, h := range hosts {
			for _, p := range ports {
				addr := addrOf(h, p)
				remote := &net.TCPAddr{IP: net.ParseIP("192.0.2.9"), Port: 22}
				for ki, k := range keys {
					offered := []ssh.PublicKey{k.PublicKey(), certs[[2]int{ki, hi}]}
					for _, key := range offered {
						for _, hn := range []string{addr, ""} {
							r := net.Addr(remote)
							if hn == "" {
								r = &net.TCPAddr{IP: net.ParseIP(h), Port: 22}
								if r.(*net.TCPAddr).IP == nil {
									continue
								}
							}
							w, g := khOutcome(want(hn, r, key)), khOutcome(got(hn, r, key))
							if w != g {
								t.Fatalf("round %d: %q key %d (%T): knownhosts %s, index %s\n%s", round, hn, ki, key, w, g, b.String())
							}
						}
					}
				}
			}
		}
	}
}

// What hostKeys honours, through the index: a changed key refused with the known one named,
// a revoked key refused, hashed and [host]:port entries found, a first-use append found on
// the next dial.
func TestHostKeysThroughTheIndex(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "known_hosts")
	a, b, c, d := testSigner(t).PublicKey(), testSigner(t).PublicKey(), testSigner(t).PublicKey(), testSigner(t).PublicKey()
	lines := knownhosts.Line([]string{"10.0.0.1"}, a) + "\n" +
		knownhosts.Line([]string{"[10.0.0.2]:2222"}, b) + "\n" +
		knownhosts.HashHostname("10.0.0.3") + " " + strings.SplitN(knownhosts.Line([]string{"x"}, c), " ", 2)[1] + "\n" +
		"@revoked " + knownhosts.Line([]string{"*"}, d) + "\n"
	if err := os.WriteFile(file, []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	remote := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 22}
	h, err := newHostKeys(file, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.check("10.0.0.1:22", remote, a); err != nil {
		t.Errorf("plain entry: %v", err)
	}
	var hke *HostKeyError
	if err := h.check("10.0.0.1:22", remote, b); !errors.As(err, &hke) || len(hke.Want) != 1 || hke.Want[0].Line != 1 {
		t.Errorf("changed key: %v, want a HostKeyError naming line 1 (even with TOFU)", err)
	}
	if err := h.check("10.0.0.2:2222", remote, b); err != nil {
		t.Errorf("[host]:port entry: %v", err)
	}
	if err := h.check("10.0.0.2:22", remote, b); err != nil {
		// port 22 has no entry: TOFU records it
		t.Errorf("10.0.0.2:22 under TOFU: %v", err)
	}
	if err := h.check("10.0.0.3:22", remote, c); err != nil {
		t.Errorf("hashed entry: %v", err)
	}
	if err := h.check("10.0.0.4:22", remote, d); !errors.Is(err, ErrHostKey) {
		t.Errorf("revoked key: %v, want ErrHostKey", err)
	}
	if got := h.algorithms("10.0.0.3:22"); !reflect.DeepEqual(got, []string{ssh.KeyAlgoED25519}) {
		t.Errorf("algorithms of the hashed entry: %v", got)
	}
	// The first-use append is found by the next run's parse, strictly.
	strict, err := newHostKeys(file, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := strict.check("10.0.0.2:22", remote, b); err != nil {
		t.Errorf("appended on first use, then: %v", err)
	}
	if err := strict.check("10.0.0.5:22", remote, a); !errors.Is(err, ErrUnknownHost) {
		t.Errorf("unknown host: %v, want ErrUnknownHost", err)
	}
}

// BenchmarkKnownHosts is one dial's two questions (algorithms, key) against a 10,000-line
// known_hosts, the last line's host: knownhosts scans every line per question, the index
// looks the address up.
//
//	go test -run '^$' -bench KnownHosts -benchmem ./collectors/sshclient
func BenchmarkKnownHosts(b *testing.B) {
	const n = 10000
	keys := make([]ssh.PublicKey, n)
	var sb strings.Builder
	for i := range keys {
		keys[i] = testSigner(b).PublicKey()
		sb.WriteString(knownhosts.Line([]string{fmt.Sprintf("[10.%d.%d.%d]:2222", i>>16, i>>8&255, i&255)}, keys[i]) + "\n")
	}
	file := filepath.Join(b.TempDir(), "known_hosts")
	if err := os.WriteFile(file, []byte(sb.String()), 0o600); err != nil {
		b.Fatal(err)
	}
	addr := fmt.Sprintf("10.%d.%d.%d:2222", (n-1)>>16, (n-1)>>8&255, (n-1)&255)
	remote := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 2222}
	probe := testSigner(b).PublicKey()
	up, err := knownhosts.New(file)
	if err != nil {
		b.Fatal(err)
	}
	kdb, err := loadKnownDB(file)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		cb   ssh.HostKeyCallback
	}{{"knownhosts", up}, {"index", kdb.callback()}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := c.cb(addr, placeholderAddr{}, probe); err == nil {
					b.Fatal("probe accepted")
				}
				if err := c.cb(addr, remote, keys[n-1]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkTrustOnFirstUse is a first run with --trust-on-first-use over 1,000 new hosts:
// each dial's check appends a line, and the next dial asks the file again.
//
//	go test -run '^$' -bench TrustOnFirstUse -benchtime 3x ./collectors/sshclient
func BenchmarkTrustOnFirstUse(b *testing.B) {
	const n = 1000
	keys := make([]ssh.PublicKey, n)
	for i := range keys {
		keys[i] = testSigner(b).PublicKey()
	}
	remote := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 22}
	dir := b.TempDir()
	run := 0
	for b.Loop() {
		run++
		file := filepath.Join(dir, fmt.Sprintf("known_hosts%d", run))
		for i, k := range keys {
			h, err := newHostKeys(file, true)
			if err != nil {
				b.Fatal(err)
			}
			addr := fmt.Sprintf("10.0.%d.%d:22", i>>8, i&255)
			if len(h.algorithms(addr)) != 0 {
				b.Fatalf("%s known before its first use", addr)
			}
			if err := h.check(addr, remote, k); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// First-use appends grow this process's parse in place, answering as a fresh parse of the
// file would (line numbers too, after a last line without its newline); a change by anyone
// else is parsed anew.
func TestTrustOnFirstUseGrowsTheParse(t *testing.T) {
	file := filepath.Join(t.TempDir(), "known_hosts")
	a, b, c, d := testSigner(t).PublicKey(), testSigner(t).PublicKey(), testSigner(t).PublicKey(), testSigner(t).PublicKey()
	if err := os.WriteFile(file, []byte("# fleet\n\n"+knownhosts.Line([]string{"10.0.0.1"}, a)), 0o600); err != nil {
		t.Fatal(err)
	}
	remote := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 22}
	parse := func() *knownDB {
		t.Helper()
		if _, err := newHostKeys(file, true); err != nil {
			t.Fatal(err)
		}
		knownHostsDBs.Lock()
		defer knownHostsDBs.Unlock()
		return knownHostsDBs.m[file].kdb
	}
	first := parse()
	h, err := newHostKeys(file, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, hk := range []struct {
		addr string
		key  ssh.PublicKey
	}{{"10.0.0.2:22", b}, {"10.0.0.3:2222", c}} {
		if err := h.check(hk.addr, remote, hk.key); err != nil {
			t.Fatalf("first use of %s: %v", hk.addr, err)
		}
	}
	if got := parse(); got != first {
		t.Fatal("the file was parsed again after this process's own appends")
	}
	want, err := knownhosts.New(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, addr := range []string{"10.0.0.1:22", "10.0.0.2:22", "10.0.0.3:2222", "10.0.0.4:22"} {
		for _, k := range []ssh.PublicKey{a, b, c, d} {
			if w, g := khOutcome(want(addr, remote, k)), khOutcome(first.callback()(addr, remote, k)); w != g {
				t.Errorf("%s: a fresh parse says %s, the grown one %s", addr, w, g)
			}
		}
	}
	// Someone else appends: the next dial parses the file again and sees the line.
	fh, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fh.WriteString(knownhosts.Line([]string{"10.0.0.4"}, d) + "\n"); err != nil {
		t.Fatal(err)
	}
	fh.Close()
	if parse() == first {
		t.Fatal("a file changed by someone else was not parsed again")
	}
	strict, err := newHostKeys(file, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := strict.check("10.0.0.4:22", remote, d); err != nil {
		t.Errorf("the other writer's line: %v", err)
	}
}

// Concurrent dials, some appending on first use while others ask: every host is then known
// once, with its own key (run with -race).
func TestTrustOnFirstUseConcurrentDials(t *testing.T) {
	file := filepath.Join(t.TempDir(), "known_hosts")
	const n = 64
	keys := make([]ssh.PublicKey, n)
	for i := range keys {
		keys[i] = testSigner(t).PublicKey()
	}
	remote := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 22}
	var wg sync.WaitGroup
	errs := make(chan error, 2*n)
	for i := range n {
		wg.Go(func() {
			addr := fmt.Sprintf("10.1.0.%d:22", i)
			for range 2 { // the second is answered by the first's line
				h, err := newHostKeys(file, true)
				if err == nil {
					_ = h.algorithms(addr)
					err = h.check(addr, remote, keys[i])
				}
				if err != nil {
					errs <- fmt.Errorf("%s: %w", addr, err)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(raw), "\n"); got != n {
		t.Errorf("%d lines for %d hosts:\n%s", got, n, raw)
	}
	strict, err := newHostKeys(file, false)
	if err != nil {
		t.Fatal(err)
	}
	for i, k := range keys {
		if err := strict.check(fmt.Sprintf("10.1.0.%d:22", i), remote, k); err != nil {
			t.Error(err)
		}
	}
}
