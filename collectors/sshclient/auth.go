package sshclient

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
)

// auth is the ordered list of methods offered to every hop, plus notes on methods that were
// configured but unusable (shown if authentication fails; they never contain secrets).
type auth struct {
	methods []ssh.AuthMethod
	notes   []string
	closers []io.Closer
}

func (a *auth) close() {
	for _, c := range a.closers {
		c.Close()
	}
}

// defaultIdentities are tried, silently, when neither the inventory nor ~/.ssh/config
// names an identity file (as OpenSSH does).
var defaultIdentities = []string{"id_ed25519", "id_ecdsa", "id_rsa"}

// buildAuth gathers methods in order: identity file, ssh-agent, password from the
// environment. A configured identity that cannot be used is an error unless the agent can
// stand in for a passphrase-protected one.
func buildAuth(r *resolved) (*auth, error) {
	a := &auth{}
	var agentSigners func() ([]ssh.Signer, error)
	if r.UseAgent {
		if sock := os.Getenv("SSH_AUTH_SOCK"); sock != "" {
			conn, err := net.Dial("unix", sock)
			if err != nil {
				a.notes = append(a.notes, fmt.Sprintf("ssh-agent at SSH_AUTH_SOCK unreachable: %v", err))
			} else {
				a.closers = append(a.closers, conn)
				agentSigners = agent.NewClient(conn).Signers
			}
		} else {
			a.notes = append(a.notes, "ssh-agent not used: SSH_AUTH_SOCK is not set")
		}
	}

	if r.IdentityFile != "" {
		signer, err := loadIdentity(r.IdentityFile)
		var pme *ssh.PassphraseMissingError
		switch {
		case errors.As(err, &pme) && agentSigners != nil:
			a.notes = append(a.notes, fmt.Sprintf("identity file %s is passphrase-protected; relying on ssh-agent", r.IdentityFile))
		case errors.As(err, &pme):
			a.close()
			return nil, fmt.Errorf("%w: identity file %s is passphrase-protected and roceaudit never prompts: "+
				"load it into ssh-agent (ssh-add %s) and make sure SSH_AUTH_SOCK is set", ErrAuth, r.IdentityFile, r.IdentityFile)
		case err != nil:
			a.close()
			return nil, fmt.Errorf("%w: identity file %s: %w (for keys held elsewhere, use ssh-agent)", ErrAuth, r.IdentityFile, err)
		default:
			a.methods = append(a.methods, ssh.PublicKeys(signer))
		}
	} else if home, err := os.UserHomeDir(); err == nil {
		var signers []ssh.Signer
		for _, name := range defaultIdentities {
			if s, err := loadIdentity(filepath.Join(home, ".ssh", name)); err == nil {
				signers = append(signers, s)
			}
		}
		if len(signers) > 0 {
			a.methods = append(a.methods, ssh.PublicKeys(signers...))
		}
	}

	if agentSigners != nil {
		a.methods = append(a.methods, ssh.PublicKeysCallback(agentSigners))
	}

	if r.PasswordEnv != "" {
		if pw := os.Getenv(r.PasswordEnv); pw != "" {
			a.methods = append(a.methods, ssh.Password(pw), ssh.KeyboardInteractive(passwordPrompts(pw)))
		} else {
			a.notes = append(a.notes, fmt.Sprintf("password_env %s is not set", r.PasswordEnv))
		}
	}

	if len(a.methods) == 0 {
		a.close()
		return nil, fmt.Errorf("%w: no usable credential (identity file, ssh-agent or password_env)%s", ErrAuth, a.noteText())
	}
	return a, nil
}

func (a *auth) noteText() string {
	if len(a.notes) == 0 {
		return ""
	}
	return "; " + strings.Join(a.notes, "; ")
}

// identities are the identity files parsed in this run (see parsedFile).
var identities parsedFile[ssh.Signer]

func loadIdentity(path string) (ssh.Signer, error) {
	return identities.load(path, ssh.ParsePrivateKey, nil)
}

// passwordPrompts answers keyboard-interactive password prompts (many switch NOSes ask
// that way) and nothing else.
func passwordPrompts(pw string) ssh.KeyboardInteractiveChallenge {
	return func(_, _ string, questions []string, echos []bool) ([]string, error) {
		answers := make([]string, len(questions))
		for i, q := range questions {
			if echos[i] || !strings.Contains(strings.ToLower(q), "password") {
				return nil, fmt.Errorf("ssh: unexpected keyboard-interactive prompt %q", q)
			}
			answers[i] = pw
		}
		return answers, nil
	}
}
