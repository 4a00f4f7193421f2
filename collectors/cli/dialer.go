package cli

import (
	"context"
	"fmt"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/sshclient"
	"github.com/roceaudit/roceaudit/inventory"
)

// Dialer opens interactive CLI sessions for the collectors.
type Dialer struct {
	// Platforms describes how each platform's CLI is driven.
	Platforms       *collectors.Registry
	TrustOnFirstUse bool // record an unknown host's key; a changed key is still refused
}

var _ collectors.Dialer = Dialer{}

// Dial opens spec's CLI (spec.Platform must be interactive in d.Platforms); commands outside
// al are refused.
func (d Dialer) Dial(ctx context.Context, spec inventory.DeviceSpec, al *collectors.Allowlist) (collectors.Session, error) {
	if d.Platforms == nil {
		return nil, fmt.Errorf("%s: no platform registry for the interactive CLI dialer", spec.Name)
	}
	s, err := DialIn(ctx, sshclient.ConfigFor(spec, al, d.TrustOnFirstUse), d.Platforms, spec.Platform)
	if err != nil {
		return nil, err // not s: a nil *Session in an interface would not compare equal to nil
	}
	return s, nil
}

// multiDialer sends each device to the interactive or the exec dialer by platform.
type multiDialer struct {
	exec, cli   collectors.Dialer
	interactive func(platform string) bool
}

// NewMultiDialer returns a Dialer that uses cli for platforms where interactive(platform) is
// true (a Registry's Interactive) and exec for the rest.
func NewMultiDialer(exec, cli collectors.Dialer, interactive func(platform string) bool) collectors.Dialer {
	return multiDialer{exec: exec, cli: cli, interactive: interactive}
}

func (m multiDialer) Dial(ctx context.Context, spec inventory.DeviceSpec, al *collectors.Allowlist) (collectors.Session, error) {
	d, kind := m.exec, "exec"
	if m.interactive(spec.Platform) {
		d, kind = m.cli, "interactive CLI"
	}
	if d == nil {
		return nil, fmt.Errorf("%s: no %s dialer configured for platform %q", spec.Name, kind, spec.Platform)
	}
	return d.Dial(ctx, spec, al)
}
