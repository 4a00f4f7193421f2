package linux

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

// An inventory interface without RDMA still becomes a port (HOST-RDMA-PORT fails on it); one
// that does not exist is reported as such and nothing is sent for it.
func TestCollectInventoryInterfaces(t *testing.T) {
	f := newFakeRunner("ofed-lossless")
	f.tolerate = true // eno1 has no fixtures for the per-port commands
	dev, err := collectScenario(t, f, inventory.DeviceSpec{Name: "gpu01", Interfaces: []string{"eno1", "ens9", "ens1f0np0"}})
	if err != nil {
		t.Fatal(err)
	}
	ports := dev.Host.Ports
	if len(ports) != 3 || ports[0].Netdev != "eno1" || ports[1].Netdev != "ens9" || ports[2].Netdev != "ens1f0np0" {
		t.Fatalf("ports %v, want eno1, ens9, ens1f0np0 in inventory order", netdevs(ports))
	}

	eno1 := ports[0]
	if eno1.RDMADevice != "" || !eno1.Link.Usable() || eno1.Link.Value.MTU != 1500 {
		t.Errorf("eno1: RDMADevice %q, link %+v", eno1.RDMADevice, eno1.Link)
	}
	if eno1.State.Usable() || !strings.Contains(eno1.State.Source.Error, "no RDMA device is bound to eno1") ||
		eno1.State.Source.Command != CmdRdmaLink {
		t.Errorf("eno1 state %+v", eno1.State)
	}
	if eno1.ToS.Usable() || eno1.GIDs.Usable() {
		t.Errorf("eno1: ToS/GIDs should be unknown without an RDMA device")
	}

	ens9 := ports[1]
	if ens9.Link.Usable() || !strings.Contains(ens9.Link.Source.Error, "netdev ens9 does not exist") {
		t.Errorf("ens9 link %+v", ens9.Link)
	}
	if ens9.QoS.Usable() || !strings.Contains(ens9.QoS.Source.Error, "does not exist") {
		t.Errorf("ens9 QoS %+v", ens9.QoS)
	}

	if !ports[2].QoS.Usable() || !ports[2].ToS.Usable() {
		t.Errorf("ens1f0np0 not collected: %+v", ports[2])
	}
	for _, cmd := range f.sentCommands() {
		if strings.Contains(cmd, "ens9") {
			t.Errorf("sent %q for a netdev that does not exist", cmd)
		}
		if strings.Contains(cmd, "eno1") && (strings.Contains(cmd, "infiniband") || strings.Contains(cmd, "rdma_cm")) {
			t.Errorf("sent RDMA command %q for eno1, which has no RDMA device", cmd)
		}
	}
}

func netdevs(ports []*topology.HostPort) []string {
	var out []string
	for _, p := range ports {
		out = append(out, p.Netdev)
	}
	return out
}

// A netdev name from the device (or the inventory) that could change a command line is
// never sent: the port is reported with error facts instead.
func TestCollectUnsafeNamesNeverSent(t *testing.T) {
	const evil = "ens1f0np0;reboot"
	f := newFakeRunner("ofed-lossless")
	f.overrides[CmdRdmaLink] = collectors.Output{Stdout: "link mlx5_0/1 state ACTIVE physical_state LINK_UP netdev " + evil + " \n"}
	dev, err := collectScenario(t, f, inventory.DeviceSpec{Name: "gpu01"})
	if err != nil {
		t.Fatal(err)
	}
	if len(dev.Host.Ports) != 1 || dev.Host.Ports[0].Netdev != evil {
		t.Fatalf("ports %v, want the unsafe netdev reported", netdevs(dev.Host.Ports))
	}
	p := dev.Host.Ports[0]
	for name, fact := range map[string]topology.Evidence{"QoS": p.QoS.Source, "Pause": p.Pause.Source, "ToS": p.ToS.Source,
		"DCBX": p.DCBX.Source, "Counters": p.Counters.Source, "DCQCN": p.DCQCN.Source} {
		if !strings.Contains(fact.Error, "not a safe") {
			t.Errorf("%s error %q should say the name is unsafe", name, fact.Error)
		}
	}
	if p.QoS.Usable() || p.Pause.Usable() || p.ToS.Usable() || p.DCBX.Usable() {
		t.Error("facts of an unsafe netdev must be unknown")
	}

	f2 := newFakeRunner("ofed-lossless")
	f2.tolerate = true
	spec := inventory.DeviceSpec{Name: "gpu01", Interfaces: []string{"eth0 $(reboot)", "x`id`", "../../etc"}}
	if _, err := collectScenario(t, f2, spec); err != nil {
		t.Fatal(err)
	}
	for _, r := range []*fakeRunner{f, f2} {
		for _, cmd := range r.sentCommands() {
			if strings.ContainsAny(cmd, ";$`") || strings.Contains(cmd, "reboot") || strings.Contains(cmd, "..") {
				t.Errorf("sent unsafe command %q", cmd)
			}
		}
	}
	for _, cmd := range (Platform{}).Plan(spec) {
		if strings.Contains(cmd, "reboot") || strings.Contains(cmd, "`") || strings.Contains(cmd, "..") {
			t.Errorf("Plan lists unsafe command %q", cmd)
		}
	}
}

func TestCollectSudo(t *testing.T) {
	f := newFakeRunner("inbox-dcb")
	spec := inventory.DeviceSpec{Name: "gpu03", Conn: inventory.Connection{Sudo: true}}
	dev, err := collectScenario(t, f, spec)
	if err != nil {
		t.Fatal(err)
	}
	sent := f.sentCommands()
	if len(sent) < 10 {
		t.Fatalf("only %d commands sent", len(sent))
	}
	for _, cmd := range sent {
		if !strings.HasPrefix(cmd, "sudo -n ") {
			t.Errorf("%q sent without sudo -n", cmd)
		}
	}
	if got := dev.Host.Ports[0].Pause.Source.Command; got != "sudo -n ethtool -a enp59s0f0np0" {
		t.Errorf("evidence command %q should be the command as sent", got)
	}
}

// deadRunner fails every command at the transport, as a dropped SSH connection does.
type deadRunner struct{}

func (deadRunner) Run(context.Context, string) (collectors.Output, error) {
	return collectors.Output{}, errors.New("ssh: connection reset by peer")
}

func TestCollectUnreachable(t *testing.T) {
	dev := &topology.Device{Name: "gpu09"}
	err := Platform{}.Collect(context.Background(), deadRunner{}, inventory.DeviceSpec{Name: "gpu09"}, dev)
	if err == nil || !strings.Contains(err.Error(), "connection reset") {
		t.Fatalf("err = %v, want the transport error", err)
	}
	if dev.Host != nil {
		t.Error("no facts should be recorded for an unreachable host")
	}
}

// refusingRunner runs every command and has each refused, as a host does whose sudo wants a
// password.
type refusingRunner struct{}

func (refusingRunner) Run(context.Context, string) (collectors.Output, error) {
	return collectors.Output{ExitCode: 1, Stderr: "sudo: a password is required\n"}, nil
}

// A host that answered every command with a refusal was not read: the device fails as a
// whole, saying how, rather than passing COLLECT-FACTS beside a list of per-port errors.
func TestCollectEveryCommandRefused(t *testing.T) {
	dev := &topology.Device{Name: "gpu09"}
	err := Platform{}.Collect(context.Background(), refusingRunner{}, inventory.DeviceSpec{Name: "gpu09", Conn: inventory.Connection{Sudo: true}}, dev)
	if err == nil {
		t.Fatal("a host that refused every command was collected")
	}
	msg := err.Error()
	if !strings.Contains(msg, "no discovery command succeeded") || strings.Count(msg, "sudo: a password is required") != 1 ||
		!strings.Contains(msg, "`sudo -n ip -d -j addr show`") {
		t.Errorf("err = %v, want the refusal once with the commands that got it", err)
	}
	if dev.Host != nil {
		t.Error("no facts should be recorded for a host that refused every command")
	}
}

func TestCollectNoRDMA(t *testing.T) {
	f := newFakeRunner("ofed-lossless")
	f.overrides[CmdRdmaLink] = collectors.Output{}
	f.overrides[CmdIbvDevinfo] = collectors.Output{Stderr: "No IB devices found\n", ExitCode: 255}
	f.overrides[CmdGIDs] = collectors.Output{ExitCode: 2}
	dev, err := collectScenario(t, f, inventory.DeviceSpec{Name: "gpu01"})
	if err == nil || !strings.Contains(err.Error(), "no RDMA netdev") {
		t.Fatalf("err = %v, want no RDMA netdev", err)
	}
	if dev.Host == nil || !dev.Host.LLDPAgent.Usable() {
		t.Error("host facts should still be recorded")
	}
}

// Old iproute2 without -j: links are unknown, but the RDMA facts are still collected.
func TestCollectIPAddrUnavailable(t *testing.T) {
	f := newFakeRunner("ofed-lossless")
	f.overrides[CmdIPAddr] = collectors.Output{Stderr: "Option \"-j\" is unknown, try \"ip -help\".\n", ExitCode: 255}
	dev, err := collectScenario(t, f, inventory.DeviceSpec{Name: "gpu01"})
	if err != nil {
		t.Fatal(err)
	}
	p := dev.Host.Ports[0]
	if p.Link.Usable() || !strings.Contains(p.Link.Source.Error, `exit 255: Option "-j" is unknown`) {
		t.Errorf("link %+v", p.Link)
	}
	if !p.QoS.Usable() || !p.State.Usable() || !p.GIDs.Usable() {
		t.Error("RDMA facts should not depend on ip addr")
	}
}

// mlnx_qos present but broken (not only missing) also falls back to dcb.
func TestCollectMlnxQosBrokenFallsBack(t *testing.T) {
	f := newFakeRunner("inbox-dcb")
	f.overrides["mlnx_qos -i enp59s0f0np0"] = collectors.Output{ExitCode: 1,
		Stdout: "Traceback (most recent call last):\n", Stderr: "ImportError: No module named dcbnetlink\n"}
	dev, err := collectScenario(t, f, inventory.DeviceSpec{Name: "gpu03"})
	if err != nil {
		t.Fatal(err)
	}
	q := dev.Host.Ports[0].QoS
	if !q.Usable() || q.Value.Tool != "dcb" || !strings.Contains(q.Source.Excerpt, "ImportError") {
		t.Errorf("QoS %+v", q)
	}

	// and when dcb fails too, QoS is unknown with both reasons
	f = newFakeRunner("inbox-dcb")
	f.overrides["dcb -j pfc show dev enp59s0f0np0"] = collectors.Output{ExitCode: 1, Stderr: "Attribute read: Operation not supported\n"}
	dev, err = collectScenario(t, f, inventory.DeviceSpec{Name: "gpu03"})
	if err != nil {
		t.Fatal(err)
	}
	p := dev.Host.Ports[0]
	if p.QoS.Usable() || p.DCBX.Usable() {
		t.Errorf("QoS %+v / DCBX %+v should be unknown", p.QoS, p.DCBX)
	}
	errContains(t, "QoS", p.QoS.Source, "command not found", "Operation not supported")
}

// An OS-owned DCB with an unknown lldpad state cannot be classified.
func TestCollectLLDPUnknown(t *testing.T) {
	f := newFakeRunner("ofed-lossless")
	f.overrides[CmdLLDPAD] = collectors.Output{ExitCode: 127, Stderr: "bash: line 1: systemctl: command not found\n"}
	f.overrides[CmdPgrepLLDPAD] = collectors.Output{ExitCode: 127, Stderr: "bash: line 1: pgrep: command not found\n"}
	dev, err := collectScenario(t, f, inventory.DeviceSpec{Name: "gpu01"})
	if err != nil {
		t.Fatal(err)
	}
	if dev.Host.LLDPAgent.Usable() {
		t.Error("LLDPAgent should be unknown without systemctl")
	}
	d := dev.Host.Ports[0].DCBX
	if d.Usable() || !strings.Contains(d.Source.Error, "lldpad") {
		t.Errorf("DCBX %+v", d)
	}
}

// Only an absent configfs entry makes the ToS "unreadable without a write" (a warning); a
// read that failed for another reason is unknown (an error).
func TestCollectToSReadFailureIsUnknown(t *testing.T) {
	f := newFakeRunner("inbox-dcb")
	dev, err := collectScenario(t, f, inventory.DeviceSpec{Name: "gpu03"})
	if err != nil {
		t.Fatal(err)
	}
	if tos := dev.Host.Ports[0].ToS; !tos.Usable() || !tos.Value.Unreadable {
		t.Fatalf("absent configfs: %+v", tos)
	}
	f = newFakeRunner("inbox-dcb")
	f.overrides["cat /sys/kernel/config/rdma_cm/rocep59s0f0/ports/1/default_roce_tos"] = collectors.Output{ExitCode: 1,
		Stderr: "cat: /sys/kernel/config/rdma_cm/rocep59s0f0/ports/1/default_roce_tos: Permission denied\n"}
	dev, err = collectScenario(t, f, inventory.DeviceSpec{Name: "gpu03"})
	if err != nil {
		t.Fatal(err)
	}
	tos := dev.Host.Ports[0].ToS
	if tos.Usable() {
		t.Errorf("permission denied must be unknown, got %+v", tos)
	}
	errContains(t, "ToS", tos.Source, "Permission denied")
}

// With rdma link and the GID table both failing, an inventory-named port is marked as having
// an unknown binding (a typed flag), not as having no RDMA device.
func TestCollectBindingsUnknownIsTyped(t *testing.T) {
	f := newFakeRunner("ofed-lossless")
	f.tolerate = true
	f.overrides[CmdRdmaLink] = collectors.Output{Stderr: "rdma: command not found\n", ExitCode: 127}
	f.overrides[CmdGIDs] = collectors.Output{Stderr: "Permission denied\n", ExitCode: 2}
	dev, _ := collectScenario(t, f, inventory.DeviceSpec{Name: "gpu01", Interfaces: []string{"enp59s0f0np0"}})
	if dev.Host == nil || len(dev.Host.Ports) != 1 {
		t.Fatalf("host facts %+v", dev.Host)
	}
	if p := dev.Host.Ports[0]; !p.BindingsUnknown || p.RDMADevice != "" {
		t.Errorf("port %s: BindingsUnknown=%v RDMADevice=%q, want an unknown binding", p.Netdev, p.BindingsUnknown, p.RDMADevice)
	}
}
