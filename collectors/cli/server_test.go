package cli

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

// cliServer is an interactive switch CLI on 127.0.0.1 built on x/crypto/ssh: it accepts
// pty-req and shell (and refuses exec), prints "NAME#", echoes every typed byte, and on
// Enter prints "\r\n", the command's output with "\r\n" line ends, and the prompt again.
type cliServer struct {
	t    testing.TB
	ln   net.Listener
	port int

	mu         sync.Mutex
	hostKey    ssh.Signer
	authorized ssh.PublicKey
	password   string            // accepted by password auth when set
	version    string            // SSH identification string
	prompt     string            // e.g. "leaf1#"
	enable     string            // if set, the prompt after "enable" (prompt is then "NAME>")
	invalid    string            // what an unknown command prints
	replies    map[string]string // command -> output ("\n" line ends)
	hang       map[string]bool   // commands that never finish (no prompt)
	drop       map[string]bool   // commands after which the server hangs up
	silent     bool              // never print a prompt at all
	flood      bool              // print endless lines on login, never a prompt
	lines      []string          // every line typed, in order ("" for a bare Enter)
	ptys       []ptyReq
	exit       chan struct{} // closed when "exit" first arrives
	exitOnce   sync.Once
	conns      []net.Conn
}

type ptyReq struct {
	Term          string
	Width, Height uint32
	PxW, PxH      uint32
	Modes         string
}

// terminalSetup is what the scrapligo EOS and NX-OS drivers type on open.
var terminalSetup = []string{"terminal width 32767", "terminal width 511", "terminal length 0"}

func newCLIServer(t testing.TB, prompt, invalid string, replies map[string]string) *cliServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &cliServer{
		t: t, ln: ln, port: ln.Addr().(*net.TCPAddr).Port,
		hostKey: newSigner(t), version: "SSH-2.0-roceaudit-lab_test",
		prompt: prompt, invalid: invalid, replies: map[string]string{}, hang: map[string]bool{}, drop: map[string]bool{},
		exit: make(chan struct{}),
	}
	for k, v := range replies {
		s.replies[k] = v
	}
	for _, c := range terminalSetup {
		s.replies[c] = ""
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

// set changes the server's behaviour under its lock.
func (s *cliServer) set(f func(s *cliServer)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(s)
}

// typed returns the lines typed so far.
func (s *cliServer) typed() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.lines...)
}

func (s *cliServer) serve() {
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

func (s *cliServer) handle(nc net.Conn) {
	s.mu.Lock()
	authorized, password := s.authorized, s.password
	cfg := &ssh.ServerConfig{
		PasswordCallback: func(_ ssh.ConnMetadata, pw []byte) (*ssh.Permissions, error) {
			if password != "" && string(pw) == password {
				return nil, nil
			}
			return nil, errors.New("wrong password")
		},
		ServerVersion: s.version,
		PublicKeyCallback: func(_ ssh.ConnMetadata, k ssh.PublicKey) (*ssh.Permissions, error) {
			if authorized != nil && bytes.Equal(k.Marshal(), authorized.Marshal()) {
				return nil, nil
			}
			return nil, errors.New("key not authorized")
		},
	}
	cfg.AddHostKey(s.hostKey)
	s.mu.Unlock()
	_, chans, reqs, err := ssh.NewServerConn(nc, cfg)
	if err != nil {
		nc.Close()
		return
	}
	go ssh.DiscardRequests(reqs)
	for nch := range chans {
		if nch.ChannelType() != "session" {
			nch.Reject(ssh.UnknownChannelType, "only sessions")
			continue
		}
		ch, creqs, err := nch.Accept()
		if err != nil {
			continue
		}
		go s.session(ch, creqs)
	}
}

func (s *cliServer) session(ch ssh.Channel, reqs <-chan *ssh.Request) {
	defer ch.Close()
	for req := range reqs {
		switch req.Type {
		case "pty-req":
			var p ptyReq
			ok := ssh.Unmarshal(req.Payload, &p) == nil
			s.mu.Lock()
			s.ptys = append(s.ptys, p)
			s.mu.Unlock()
			req.Reply(ok, nil)
		case "shell":
			req.Reply(true, nil)
			go ssh.DiscardRequests(reqs)
			s.shell(ch)
			return
		default: // exec, subsystem, env: a switch CLI here only talks on a PTY shell
			req.Reply(false, nil)
		}
	}
}

func (s *cliServer) shell(ch ssh.Channel) {
	s.mu.Lock()
	silent, prompt, flood := s.silent, s.prompt, s.flood
	s.mu.Unlock()
	if silent {
		io.Copy(io.Discard, ch)
		return
	}
	if flood {
		go io.Copy(io.Discard, ch)
		line := []byte(strings.Repeat("% login banner without end\r\n", 1000))
		for {
			if _, err := ch.Write(line); err != nil {
				return
			}
		}
	}
	io.WriteString(ch, "\r\nLast login: never\r\n"+prompt)
	var line []byte
	b := make([]byte, 1)
	var prev byte
	for {
		if _, err := ch.Read(b); err != nil {
			return
		}
		c := b[0]
		if c == '\n' && prev == '\r' {
			prev = c
			continue
		}
		prev = c
		if c != '\r' && c != '\n' {
			line = append(line, c)
			ch.Write(b) // echo
			continue
		}
		cmd := string(line)
		line = line[:0]
		s.mu.Lock()
		s.lines = append(s.lines, cmd)
		out, known := s.replies[cmd]
		hang, drop := s.hang[cmd], s.drop[cmd]
		invalid, enable := s.invalid, s.enable
		s.mu.Unlock()
		ch.Write([]byte("\r\n"))
		switch {
		case cmd == "exit":
			s.exitOnce.Do(func() { close(s.exit) })
			return
		case drop:
			return
		case hang:
			continue
		case cmd == "":
		case cmd == "enable" && enable != "":
			prompt = enable
		case !known:
			out = invalid
		}
		if out != "" {
			io.WriteString(ch, strings.ReplaceAll(strings.TrimSuffix(out, "\n"), "\n", "\r\n")+"\r\n")
		}
		io.WriteString(ch, prompt)
	}
}

func newSigner(t testing.TB) ssh.Signer {
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

// writeClientKey writes an unencrypted OpenSSH private key and returns its path and public key.
func writeClientKey(t testing.TB, dir string) (string, ssh.PublicKey) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	blk, err := ssh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "id_ed25519")
	if err := os.WriteFile(p, pem.EncodeToMemory(blk), 0o600); err != nil {
		t.Fatal(err)
	}
	sp, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return p, sp
}

// knownLine is the known_hosts line for s's current host key.
func (s *cliServer) knownLine(key ssh.PublicKey) string {
	return knownhosts.Line([]string{knownhosts.Normalize(s.ln.Addr().String())}, key)
}

func (s *cliServer) waitExit(t *testing.T) {
	t.Helper()
	select {
	case <-s.exit:
	case <-time.After(2 * time.Second):
		t.Fatal("the session never typed exit")
	}
}
