package sshclient

import (
	"context"
	"strings"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/inventory"
)

// LabBanner is in the SSH version string of every emulated lab device; reports built from
// such devices say they come from a simulation.
const LabBanner = "roceaudit-lab"

// Dialer opens SSH sessions for the collectors.
type Dialer struct {
	TrustOnFirstUse bool
}

// NewDialer returns a Dialer; tofu records unknown host keys (never a changed one).
func NewDialer(tofu bool) *Dialer { return &Dialer{TrustOnFirstUse: tofu} }

// Dial connects to one inventory device, refusing later any command outside al.
func (d *Dialer) Dial(ctx context.Context, spec inventory.DeviceSpec, al *collectors.Allowlist) (collectors.Session, error) {
	c, err := Dial(ctx, ConfigFor(spec, al, d.TrustOnFirstUse))
	if err != nil {
		return nil, err
	}
	return session{c}, nil
}

type session struct{ *Client }

func (s session) Simulated() bool { return strings.Contains(s.ServerVersion(), LabBanner) }
