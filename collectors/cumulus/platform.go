package cumulus

import (
	"slices"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

// Switch-wide commands, sent once.
const (
	CmdSystem        = "nv show system"
	CmdInterfaceLLDP = "nv show interface lldp"
	CmdRoCE          = "nv show qos roce"
)

// Per-port command templates; {if} is a front-panel port name validated by
// collectors.Expand.
const (
	TmplLink               = "nv show interface {if} link"
	TmplRoCEStatus         = "nv show interface {if} qos roce status"
	TmplMapping            = "nv show interface {if} qos mapping"
	TmplEgressQueueMapping = "nv show interface {if} qos egress-queue-mapping"
	TmplEgressScheduler    = "nv show interface {if} qos egress-scheduler"
	TmplCongestion         = "nv show interface {if} qos congestion-control"
	TmplPFC                = "nv show interface {if} qos pfc"
	TmplLinkPause          = "nv show interface {if} qos link-pause"
	TmplPFCWatchdog        = "nv show interface {if} qos pfc-watchdog"
	TmplCounters           = "nv show interface {if} counters qos"
)

// switchCommands is sent once per switch, in this order.
var switchCommands = []string{CmdSystem, CmdInterfaceLLDP, CmdRoCE}

// roceCommands is sent per port when `nv show qos roce` says RoCE is enabled: the port's RoCE
// status holds trust, maps, PFC, ECN and scheduling.
var roceCommands = []string{TmplLink, TmplRoCEStatus, TmplLinkPause, TmplPFCWatchdog, TmplCounters, TmplLinkStats}

// genericCommands is sent per port when RoCE is disabled: the generic QoS profiles.
var genericCommands = []string{TmplLink, TmplMapping, TmplEgressQueueMapping, TmplEgressScheduler,
	TmplCongestion, TmplPFC, TmplLinkPause, TmplPFCWatchdog, TmplCounters, TmplLinkStats}

// jsonFirst are the commands read as `-o json` first (jsonCmd), their text form the fallback:
// the text truncates the LLDP table's wide cells and humanises byte counters.
var jsonFirst = []string{CmdInterfaceLLDP, TmplCounters, TmplLinkStats}

// Templates is every command the collector may send: each JSON form just before its text form.
func Templates() []string {
	var out []string
	for _, t := range append(append(append([]string(nil), switchCommands...), roceCommands...), genericCommands...) {
		if slices.Contains(out, t) {
			continue
		}
		if slices.Contains(jsonFirst, t) {
			out = append(out, jsonCmd(t))
		}
		out = append(out, t)
	}
	return out
}

// descriptor is everything roceaudit knows of Cumulus Linux (NVUE).
var descriptor = collectors.Describe(collectors.Spec{
	Name:          "cumulus",
	Role:          topology.RoleSwitch,
	Commands:      Templates(),
	Collector:     Platform{},
	Remedy:        Remediation,
	ExamplePort:   "swp1",
	ExampleSwitch: exampleSwitch,
	ClabKinds:     map[string]func(string) string{"cvx": nil, "cumulus_cvx": nil, "nvidia_cumulusvx": nil},
	AnsibleOS:     []string{"nvidia.nvue.*", "nvue", "cumulus"},
})

// Descriptor is the Cumulus platform for the registry.
func Descriptor() *collectors.Descriptor { return descriptor }

// Platform collects NVIDIA Cumulus Linux 5.x switches through NVUE.
type Platform struct{}

// Plan lists the commands Collect may send: the switch-wide ones, then the per-port templates
// of both regimes ({if} stands for each port; which regime applies is only known once `nv
// show qos roce` has answered).
func (Platform) Plan(inventory.DeviceSpec) []string { return Templates() }
