package sshclient

import "golang.org/x/crypto/ssh"

// SSHClient is the authenticated connection behind c, already past the host-key check, so
// another transport (the interactive CLI in collectors/cli) can open a shell channel on it
// instead of dialling and verifying the host a second time. Nil before Dial. Closing c closes
// it; callers must not close it themselves.
func (c *Client) SSHClient() *ssh.Client { return c.conn }

// Target is the resolved "user@host:port" c is connected to, for messages.
func (c *Client) Target() string { return c.target }
