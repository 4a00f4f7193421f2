// Package labcheck is where the lab and the collectors meet, and only in tests: a real
// collector run over an emulated device (exec or SSH, as the auditor runs it), the round trips
// that compare what it reports with the emulated state, and the check that every command a
// collector can send is answered by its platform's emulator. No production code imports it.
package labcheck

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/cli"
	"github.com/roceaudit/roceaudit/collectors/sshclient"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/lab/labtest"
	"github.com/roceaudit/roceaudit/lab/sshd"
	"github.com/roceaudit/roceaudit/lab/switchstate"
	"github.com/roceaudit/roceaudit/topology"
)

// ExecRunner sends a collector's commands to an emulator's Exec, refusing what the
// collector's allowlist refuses, as the real runner does.
type ExecRunner struct {
	Dev   sshd.Device
	Allow *collectors.Allowlist
}

func (r ExecRunner) Run(ctx context.Context, cmd string) (collectors.Output, error) {
	if !r.Allow.Allows(cmd) {
		return collectors.Output{}, collectors.ErrNotAllowed
	}
	stdout, stderr, exit := r.Dev.Exec(ctx, cmd)
	return collectors.Output{Stdout: stdout, Stderr: stderr, ExitCode: exit}, nil
}

// Collect runs p's collector on dev's exec answers for the switch sw that dev serves.
func Collect(t testing.TB, p collectors.Platform, dev sshd.Device, sw *switchstate.Switch) *topology.SwitchFacts {
	t.Helper()
	d := &topology.Device{Name: sw.Name, Platform: p.Name(), Role: topology.RoleSwitch}
	if err := p.Collect(context.Background(), ExecRunner{dev, p.Allowlist()}, inventory.DeviceSpec{Name: sw.Name}, d); err != nil {
		t.Fatal(err)
	}
	return d.Switch
}

// Known is the fact a collector reports for v read from cmd.
func Known[T any](v T, cmd string) topology.Fact[T] {
	return topology.Known(v, topology.Evidence{Command: cmd})
}

// PerQueue is f of each queue (or traffic class) 0..7.
func PerQueue[T any](f func(q int) T) map[int]T {
	m := map[int]T{}
	for q := 0; q < 8; q++ {
		m[q] = f(q)
	}
	return m
}

// Members are the indexes set in a per-priority array, ascending (empty, not nil, for none).
func Members(set [8]bool) []int {
	out := []int{}
	for i, on := range set {
		if on {
			out = append(out, i)
		}
	}
	return out
}

// FactOpts compare collected switch facts with the expected ones: DCBX detail is the
// collector's prose, empty equals absent, LLDP neighbours in any order, a status only as read
// or unknown and no reason (whether a fact is inferred or unsupported, and why, is each
// round trip's own check). evidence says how evidence compares (IgnoreExcerpts, or an
// emulator's own comparer).
func FactOpts(evidence cmp.Option) cmp.Options {
	return cmp.Options{
		evidence,
		cmp.Comparer(func(a, b topology.FactStatus) bool { return (a == topology.FactUnknown) == (b == topology.FactUnknown) }),
		cmp.FilterPath(func(p cmp.Path) bool {
			sf, ok := p.Last().(cmp.StructField)
			return ok && sf.Name() == "Reason" && strings.HasPrefix(p.Index(-2).Type().Name(), "Fact[")
		}, cmp.Ignore()),
		cmpopts.IgnoreFields(topology.DCBX{}, "Detail"),
		cmpopts.EquateEmpty(),
		cmpopts.SortSlices(func(a, b topology.LLDPNeighbor) bool { return a.LocalPort < b.LocalPort }),
	}
}

// IgnoreExcerpts compares evidence without the excerpts, which are the collector's.
var IgnoreExcerpts = cmpopts.IgnoreFields(topology.Evidence{}, "Excerpt")

// ExpectedLLDP is every neighbour on a port of sw whose link is up, as row makes the
// collector's entry of it.
func ExpectedLLDP(sw *switchstate.Switch, row func(p *switchstate.Port, n *switchstate.Neighbor) topology.LLDPNeighbor) []topology.LLDPNeighbor {
	var out []topology.LLDPNeighbor
	for _, p := range sw.Ports {
		if n := p.Neighbor; n != nil && p.Up {
			out = append(out, row(p, n))
		}
	}
	return out
}

// ClientConfig is roceaudit's SSH client configuration for the lab server s as user: the client key
// and a known_hosts file that pins the host key, written to a temporary directory, and a 5 s
// timeout. The caller adds the allowlist and sudo.
func ClientConfig(t testing.TB, s labtest.Server, user string) sshclient.Config {
	t.Helper()
	dir := t.TempDir()
	keyFile, khFile := filepath.Join(dir, "id_ed25519"), filepath.Join(dir, "known_hosts")
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(s.Port))
	if err := os.WriteFile(keyFile, s.ClientKey, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(khFile, []byte(knownhosts.Line([]string{knownhosts.Normalize(addr)}, s.HostKey)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return sshclient.Config{Host: "127.0.0.1", Port: s.Port, User: user, IdentityFile: keyFile,
		KnownHostsFile: khFile, Timeout: 5 * time.Second}
}

// CollectOverCLI collects the device named name through roceaudit's own interactive CLI
// transport (scrapligo on a verified SSH connection, as admin) with p's collector, and fails
// the test unless the session says it is simulated.
func CollectOverCLI(t testing.TB, p *collectors.Descriptor, srv labtest.Server, name string) *topology.SwitchFacts {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cfg := ClientConfig(t, srv, "admin")
	cfg.Allowlist = p.Allowlist()
	s, err := cli.DialPlatform(ctx, cfg, p)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !s.Simulated() {
		t.Error("the session does not say it is simulated")
	}
	dev := &topology.Device{Name: name}
	if err := p.Collect(ctx, s, inventory.DeviceSpec{Name: name}, dev); err != nil {
		t.Fatal(err)
	}
	return dev.Switch
}

// Traffic is what a collector must report of a port's traffic counters under the normalized
// names: packets always, bytes when the NOS counts octets (SONiC's portstat prints none).
func Traffic(p *switchstate.Port, withBytes bool, into map[string]int64) map[string]int64 {
	into["rx_packets"], into["tx_packets"] = p.Counters[switchstate.InUcastPkts], p.Counters[switchstate.OutUcastPkts]
	if withBytes {
		into["rx_bytes"], into["tx_bytes"] = p.Counters[switchstate.InOctets], p.Counters[switchstate.OutOctets]
	}
	return into
}
