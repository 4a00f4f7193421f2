package collectors

import "context"

type hangupKey struct{}

// WithHangup marks the commands run under ctx as long-running ones that must not outlive the
// caller (a perftest server): the SSH transport gives them a terminal, so that closing the
// session hangs up their whole process group, and stops them with TERM before KILL. Signals
// alone are not enough: sshd refuses them for root logins, and sudo relays TERM but dies of
// KILL leaving its child running; a session closed without a terminal stops nothing.
func WithHangup(ctx context.Context) context.Context {
	return context.WithValue(ctx, hangupKey{}, true)
}

// HangupWanted reports whether ctx was marked by WithHangup.
func HangupWanted(ctx context.Context) bool {
	v, _ := ctx.Value(hangupKey{}).(bool)
	return v
}
