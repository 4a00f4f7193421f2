// Package cli is roceaudit's interactive-CLI transport for switches whose CLI wants a
// prompt (Arista EOS, Cisco NX-OS): scrapligo v1's network driver for the platform types
// allowlisted commands into a PTY shell and reads up to the next prompt.
//
// The SSH side is the ssh package's, unchanged: Dial calls ssh.Dial (strict known_hosts,
// trust on first use, agent, ~/.ssh/config, jump hosts, error classes) and scrapligo gets a
// custom transport that opens the shell channel on that already-verified connection. So the
// host is verified once, on the one connection that is used, and never by scrapligo's own
// known_hosts code (which cannot do trust on first use or name the offered fingerprint).
package cli
