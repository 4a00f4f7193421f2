package sshclient

import (
	"errors"
	"fmt"
	"strings"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

// Sentinels a caller can test with errors.Is. Every error Dial returns that falls in one of
// these classes wraps the sentinel; the underlying cause is wrapped too where there is one.
var (
	// ErrAuth: no offered credential was accepted, or none could be loaded.
	ErrAuth = errors.New("ssh authentication failed")
	// ErrHostKey: the host offered a key that differs from known_hosts (see *HostKeyError),
	// or a revoked key.
	ErrHostKey = errors.New("ssh host key mismatch")
	// ErrUnknownHost: known_hosts has no key for the host and trust-on-first-use is off.
	ErrUnknownHost = errors.New("ssh host unknown")
	// ErrTimeout: connecting or a command took longer than Config.Timeout.
	ErrTimeout = errors.New("ssh timeout")
	// ErrConnRefused: nothing listens on the port (or the jump host could not connect).
	ErrConnRefused = errors.New("ssh connection refused")
	// ErrOutputTooLarge: a command's output passed MaxOutput, so it was stopped there rather
	// than read, and waited for, to its timeout (a device that floods). The interactive CLI
	// transport's flood wraps it too.
	ErrOutputTooLarge = fmt.Errorf("output exceeded %d MiB", MaxOutput>>20)
	// ErrExecRefused: the server turned down the request to run a command (a shell-only or
	// restricted account, or a device whose CLI needs an interactive session).
	ErrExecRefused = errors.New("the server refused to run a command (exec request rejected: is the account shell-only, or does the platform need an interactive CLI?)")
)

// startError is a session's failure to start a command. x/crypto words a rejected exec
// request with the whole command in it, which for a batch is every command of the list:
// the error names the refusal instead, once.
func startError(err error) error {
	if msg := err.Error(); strings.HasPrefix(msg, "ssh: command ") && strings.HasSuffix(msg, " failed") {
		return ErrExecRefused
	}
	return err
}

// HostKeyError is a host-key mismatch: possibly a man-in-the-middle, possibly a reinstalled
// host. It is never bypassed, not even with trust-on-first-use.
type HostKeyError struct {
	Host        string // as looked up in known_hosts, e.g. "[10.0.0.1]:2222"
	KeyType     string // type of the offered key
	Fingerprint string // ssh.FingerprintSHA256 of the offered key
	Want        []knownhosts.KnownKey
}

func (e *HostKeyError) Error() string {
	var want []string
	for _, k := range e.Want {
		want = append(want, fmt.Sprintf("%s key %s at %s:%d",
			k.Key.Type(), ssh.FingerprintSHA256(k.Key), k.Filename, k.Line))
	}
	return fmt.Sprintf("%s: host %s offered %s key %s but known_hosts expects %s; "+
		"refusing to connect (if the host was reinstalled, verify the new key and remove the old line)",
		ErrHostKey, e.Host, e.KeyType, e.Fingerprint, strings.Join(want, ", "))
}

// Is makes errors.Is(err, ErrHostKey) true.
func (e *HostKeyError) Is(target error) bool { return target == ErrHostKey }
