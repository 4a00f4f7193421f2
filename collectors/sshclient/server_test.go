package sshclient

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/pem"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/roceaudit/roceaudit/lab/loginshell"
)

// reply is how the test server answers one exec request.
type reply struct {
	stdout, stderr string
	exit           uint32
	slow           bool // block until the client closes the channel
	noExit         bool // close without an exit-status
	drop           bool // cut the connection after the output
	flood          bool // after the output, write without end until the client closes
}

// testServer is a minimal SSH server on 127.0.0.1 built on x/crypto/ssh: public-key and
// password auth, exec answered from a map, and optionally direct-tcpip (as a jump host).
type testServer struct {
	t    *testing.T
	ln   net.Listener
	port int

	mu         sync.Mutex
	hostKeys   []ssh.Signer
	authorized ssh.PublicKey
	password   string
	replies    map[string]reply
	delay      time.Duration // before answering a non-slow command
	// shell runs each exec line as a login shell's `;`-list (lab/loginshell), each command
	// answered from replies; off, the whole line is one command, as a network CLI takes it.
	shell     bool
	forwardOK bool
	// noExitStatus: no channel ever gets an exit-status (as some embedded sshds do).
	noExitStatus bool
	// refuseExec turns down every exec request, as a shell-only account's sshd does.
	refuseExec  bool
	received    []string // exec commands, in arrival order
	users       []string // users that authenticated
	signals     []string
	forwards    []string // direct-tcpip destinations
	active, max int      // concurrent exec sessions
	conns       []net.Conn

	slowClosed chan string // a slow command's channel was closed by the client
}

func newTestServer(t *testing.T, replies map[string]reply) *testServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &testServer{
		t: t, ln: ln, port: ln.Addr().(*net.TCPAddr).Port,
		hostKeys:   []ssh.Signer{newSigner(t)},
		replies:    replies,
		slowClosed: make(chan string, 16),
	}
	go s.serve()
	t.Cleanup(func() {
		ln.Close()
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, c := range s.conns {
			c.Close()
		}
	})
	return s
}

func (s *testServer) addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port)) }

func (s *testServer) hostKey() ssh.PublicKey {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hostKeys[0].PublicKey()
}

func (s *testServer) setHostKeys(keys ...ssh.Signer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hostKeys = keys
}

func (s *testServer) snapshot() (received, users, signals, forwards []string, maxActive int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.received...), append([]string(nil), s.users...),
		append([]string(nil), s.signals...), append([]string(nil), s.forwards...), s.max
}

func (s *testServer) serve() {
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		s.conns = append(s.conns, c)
		s.mu.Unlock()
		go s.handle(c)
	}
}

func (s *testServer) config() *ssh.ServerConfig {
	s.mu.Lock()
	defer s.mu.Unlock()
	authorized, password := s.authorized, s.password
	cfg := &ssh.ServerConfig{
		PublicKeyCallback: func(m ssh.ConnMetadata, k ssh.PublicKey) (*ssh.Permissions, error) {
			if authorized != nil && bytes.Equal(k.Marshal(), authorized.Marshal()) {
				s.addUser(m.User())
				return nil, nil
			}
			return nil, io.EOF
		},
		PasswordCallback: func(m ssh.ConnMetadata, pw []byte) (*ssh.Permissions, error) {
			if password != "" && string(pw) == password {
				s.addUser(m.User())
				return nil, nil
			}
			return nil, io.EOF
		},
	}
	for _, k := range s.hostKeys {
		cfg.AddHostKey(k)
	}
	return cfg
}

func (s *testServer) addUser(u string) {
	s.mu.Lock()
	s.users = append(s.users, u)
	s.mu.Unlock()
}

func (s *testServer) handle(c net.Conn) {
	_, chans, reqs, err := ssh.NewServerConn(c, s.config())
	if err != nil {
		c.Close()
		return
	}
	go ssh.DiscardRequests(reqs)
	for nc := range chans {
		switch nc.ChannelType() {
		case "session":
			go s.session(nc, c)
		case "direct-tcpip":
			go s.forward(nc)
		default:
			nc.Reject(ssh.UnknownChannelType, "no")
		}
	}
}

func (s *testServer) session(nc ssh.NewChannel, conn net.Conn) {
	ch, reqs, err := nc.Accept()
	if err != nil {
		return
	}
	closed := make(chan struct{})
	for req := range reqs {
		switch req.Type {
		case "exec":
			var p struct{ Command string }
			if err := ssh.Unmarshal(req.Payload, &p); err != nil {
				req.Reply(false, nil)
				continue
			}
			s.mu.Lock()
			s.received = append(s.received, p.Command)
			refuse := s.refuseExec
			s.mu.Unlock()
			if refuse {
				req.Reply(false, nil)
				continue
			}
			req.Reply(true, nil)
			go s.exec(ch, conn, p.Command, closed)
		case "signal":
			var p struct{ Signal string }
			if ssh.Unmarshal(req.Payload, &p) == nil {
				s.mu.Lock()
				s.signals = append(s.signals, p.Signal)
				s.mu.Unlock()
			}
			if req.WantReply {
				req.Reply(true, nil)
			}
		default:
			req.Reply(false, nil)
		}
	}
	// The request stream ends when the channel is closed.
	close(closed)
}

func (s *testServer) exec(ch ssh.Channel, conn net.Conn, cmd string, closed <-chan struct{}) {
	s.mu.Lock()
	r, ok := s.replies[cmd]
	delay := s.delay
	noExitStatus := s.noExitStatus
	s.active++
	s.max = max(s.max, s.active)
	s.mu.Unlock()
	done := func() {
		s.mu.Lock()
		s.active--
		s.mu.Unlock()
	}
	if !ok {
		r = reply{stderr: "sh: " + cmd + ": not found\n", exit: 127}
	}
	if s.shell {
		r = s.list(cmd)
	}
	if r.flood {
		io.WriteString(ch, r.stdout)
		io.WriteString(ch.Stderr(), r.stderr)
		chunk := bytes.Repeat([]byte("flood "), 10<<10)
		for i := 0; i < 1<<12; i++ { // bounded: 240 MiB, far past MaxOutput
			if _, err := ch.Write(chunk); err != nil {
				break
			}
		}
		done()
		ch.Close()
		return
	}
	if r.slow {
		io.WriteString(ch, r.stdout)
		io.WriteString(ch.Stderr(), r.stderr)
		<-closed
		done()
		s.slowClosed <- cmd
		return
	}
	time.Sleep(delay)
	io.WriteString(ch, r.stdout)
	io.WriteString(ch.Stderr(), r.stderr)
	done()
	if r.drop {
		conn.Close()
		return
	}
	if !r.noExit && !noExitStatus {
		ch.SendRequest("exit-status", false, ssh.Marshal(struct{ Status uint32 }{r.exit}))
	}
	ch.Close()
}

// forward serves direct-tcpip for the jump-host role, to 127.0.0.1 only.
func (s *testServer) forward(nc ssh.NewChannel) {
	var p struct {
		Host     string
		Port     uint32
		OrigHost string
		OrigPort uint32
	}
	s.mu.Lock()
	ok := s.forwardOK
	s.mu.Unlock()
	if !ok || ssh.Unmarshal(nc.ExtraData(), &p) != nil {
		nc.Reject(ssh.Prohibited, "forwarding disabled")
		return
	}
	if p.Host != "127.0.0.1" {
		nc.Reject(ssh.Prohibited, "only 127.0.0.1")
		return
	}
	dest := net.JoinHostPort(p.Host, strconv.Itoa(int(p.Port)))
	s.mu.Lock()
	s.forwards = append(s.forwards, dest)
	s.mu.Unlock()
	c, err := net.Dial("tcp", dest)
	if err != nil {
		nc.Reject(ssh.ConnectionFailed, err.Error())
		return
	}
	ch, reqs, err := nc.Accept()
	if err != nil {
		c.Close()
		return
	}
	go ssh.DiscardRequests(reqs)
	go func() {
		io.Copy(ch, c)
		ch.CloseWrite()
	}()
	io.Copy(c, ch)
	c.Close()
}

func newSigner(t *testing.T) ssh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func newECDSASigner(t *testing.T) ssh.Signer {
	t.Helper()
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// writeClientKey writes a fresh ed25519 private key (optionally passphrase-protected) and
// returns its path and public key.
func writeClientKey(t *testing.T, dir, passphrase string) (string, ssh.PublicKey) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	var block *pem.Block
	if passphrase == "" {
		block, err = ssh.MarshalPrivateKey(priv, "test")
	} else {
		block, err = ssh.MarshalPrivateKeyWithPassphrase(priv, "test", []byte(passphrase))
	}
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "id_test_"+strconv.FormatInt(time.Now().UnixNano(), 36))
	if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	sshPub, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return path, sshPub
}

// writeKnownHosts writes lines to a fresh known_hosts file.
func writeKnownHosts(t *testing.T, dir string, lines ...string) string {
	t.Helper()
	path := filepath.Join(dir, "known_hosts")
	var b bytes.Buffer
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func knownLine(s *testServer) string {
	return knownhosts.Line([]string{knownhosts.Normalize(s.addr())}, s.hostKey())
}

// list answers a line as a shell runs a list of the replies. A slow command holds the list
// until the client closes the channel, and one that ends without an exit status or drops the
// connection ends the list so: what came before it (and its own output) is all the client gets.
func (s *testServer) list(line string) reply {
	const cut = "\x00cut\x00"
	var first *reply // the command that cut the list short
	stdout, stderr, exit := loginshell.List(line, func(c string) (string, string, int) {
		s.mu.Lock()
		r, ok := s.replies[c]
		s.mu.Unlock()
		switch {
		case !ok:
			return "", "sh: " + c + ": not found\n", 127
		case r.slow || r.noExit || r.drop || r.flood:
			if first == nil {
				first = &r
			}
			return r.stdout + cut, r.stderr + cut, 0
		}
		return r.stdout, r.stderr, int(r.exit)
	})
	if first != nil {
		return reply{stdout: stdout[:strings.Index(stdout, cut)], stderr: stderr[:strings.Index(stderr, cut)], slow: first.slow, noExit: first.noExit, drop: first.drop, flood: first.flood}
	}
	return reply{stdout: stdout, stderr: stderr, exit: uint32(exit)}
}
