package cumulus

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/roceaudit/roceaudit/collectors"
	cumuluscol "github.com/roceaudit/roceaudit/collectors/cumulus"
	sshx "github.com/roceaudit/roceaudit/collectors/ssh"
	"github.com/roceaudit/roceaudit/lab/sshd"
	"github.com/roceaudit/roceaudit/lab/switchstate"
	"github.com/roceaudit/roceaudit/topology"
)

func TestExecRefusesWhatItDoesNotKnow(t *testing.T) {
	dev := New(leaf2())
	for _, c := range []struct {
		cmd, stderr string
		exit        int
	}{
		{"nv set interface swp1 link mtu 1500", "bash: line 1: nv: command not found\n", 127},
		{"nv config apply -y", "bash: line 1: nv: command not found\n", 127},
		{"sudo -n nv unset qos roce", "sudo: nv: command not found\n", 1},
		{"nv show interface swp1 qos roce", "bash: line 1: nv: command not found\n", 127},
		{"nv show qos roce; reboot", "bash: line 1: nv: command not found\n", 127},
		{"ip link set swp1 mtu 1500", "bash: line 1: ip: command not found\n", 127},
		{"nv show interface swp9 link", itemMissing, 1},
		{"", "", 0},
	} {
		out, stderr, exit := dev.Exec(context.Background(), c.cmd)
		if out != "" || stderr != c.stderr || exit != c.exit {
			t.Errorf("%q: stdout %q stderr %q exit %d, want stderr %q exit %d", c.cmd, out, stderr, exit, c.stderr, c.exit)
		}
	}
}

// TestExecAnswersEveryCollectorCommand: every command the collector may send answers in both
// regimes (the RoCE status only in RoCE mode), also behind sudo -n and with extra blanks.
func TestExecAnswersEveryCollectorCommand(t *testing.T) {
	for _, sc := range scenarios() {
		dev := New(sc.sw)
		for _, tmpl := range cumuluscol.Templates() {
			cmd, err := collectors.Expand(tmpl, map[string]string{"if": "swp52"})
			if err != nil {
				t.Fatal(err)
			}
			out, stderr, exit := dev.Exec(context.Background(), cmd)
			if tmpl == cumuluscol.TmplRoCEStatus && !sc.roce {
				if exit != 1 || stderr != itemMissing {
					t.Errorf("%s: %q with RoCE disabled: exit %d stderr %q", sc.name, cmd, exit, stderr)
				}
				continue
			}
			if exit != 0 || stderr != "" || !strings.HasSuffix(out, "\n") {
				t.Errorf("%s: %q: exit %d stderr %q", sc.name, cmd, exit, stderr)
			}
			sudo, _, _ := dev.Exec(context.Background(), "sudo -n "+strings.ReplaceAll(cmd, " ", "  "))
			if sudo != out {
				t.Errorf("%s: %q behind sudo -n answers differently", sc.name, cmd)
			}
		}
	}
}

// TestAnswersFollowTheState: a change to the state shows in the next answer, and a change RoCE
// mode cannot express turns RoCE off switch-wide.
func TestAnswersFollowTheState(t *testing.T) {
	sw := leaf2()
	dev := New(sw)
	before, _, _ := dev.Exec(context.Background(), "nv show interface swp2 link")
	sw.Update(func(sw *switchstate.Switch) { sw.Port("swp2").MTU = 9000 })
	after, _, _ := dev.Exec(context.Background(), "nv show interface swp2 link")
	if strings.Contains(before, "9000") || !strings.Contains(after, "mtu             9000         9000     9000\n") {
		t.Errorf("link did not follow the MTU change:\n%s", after)
	}
	sw.Update(func(sw *switchstate.Switch) { sw.Port("swp3").TrustDSCP = false })
	roce, _, _ := dev.Exec(context.Background(), cumuluscol.CmdRoCE)
	mapping, _, _ := dev.Exec(context.Background(), "nv show interface swp3 qos mapping")
	if !strings.HasPrefix(roce, "        operational  applied\n------  -----------  -------\nenable               off\n") ||
		!strings.Contains(mapping, "trust            l2\n") {
		t.Errorf("RoCE did not turn off for a port trusting PCP:\n%s\n%s", roce, mapping)
	}
}

// TestCollectOverSSH collects leaf2 with its SW-MTU fault through lab/sshd and roceaudit's own
// SSH runner, with sudo, and checks it sees what the exec path sees.
func TestCollectOverSSH(t *testing.T) {
	sw := leaf2()
	sw.Port("swp2").MTU = 9000
	dev := New(sw)

	_, hostPriv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	hostKey, err := ssh.NewSignerFromKey(hostPriv)
	if err != nil {
		t.Fatal(err)
	}
	clientPub, clientPriv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := ssh.NewPublicKey(clientPub)
	if err != nil {
		t.Fatal(err)
	}
	blk, err := ssh.MarshalPrivateKey(clientPriv, "")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := sshd.Start(sshd.Config{Device: dev, HostKey: hostKey, ClientKey: pub, User: "cumulus"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })

	dir := t.TempDir()
	keyFile, khFile := filepath.Join(dir, "id_ed25519"), filepath.Join(dir, "known_hosts")
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(srv.Port()))
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(blk), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(khFile, []byte(knownhosts.Line([]string{knownhosts.Normalize(addr)}, hostKey.PublicKey())+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := sshx.Dial(ctx, sshx.Config{Host: "127.0.0.1", Port: srv.Port(), User: "cumulus", IdentityFile: keyFile,
		KnownHostsFile: khFile, Timeout: 5 * time.Second, Sudo: true, Allowlist: cumuluscol.Platform{}.Allowlist()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	viaSSH := &topology.Device{Name: "leaf2"}
	if err := (cumuluscol.Platform{}).Collect(ctx, c, topology.DeviceSpec{Name: "leaf2"}, viaSSH); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(collect(t, sw), viaSSH.Switch); d != "" {
		t.Errorf("collection over SSH differs from exec (-exec +ssh):\n%s", d)
	}
	if got := viaSSH.Switch.Port("swp2").MTU.Value.Configured; got != 9000 {
		t.Errorf("swp2 MTU over SSH %d, want 9000", got)
	}
}
