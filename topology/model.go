// Package topology holds the normalized fabric model: devices, ports, links and paths.
// The snapshot is the hand-off between collection and checks, so it is serializable and
// carries the raw transcript of every command.
package topology

import (
	"time"

	"github.com/roceaudit/roceaudit/recipe"
)

// SnapshotSchema names the snapshot format.
const SnapshotSchema = "roceaudit/snapshot/v1"

// Snapshot is everything collected from a fabric at one time.
type Snapshot struct {
	Schema      string        `json:"schema"`
	ToolVersion string        `json:"tool_version"`
	Started     time.Time     `json:"started"`
	Finished    time.Time     `json:"finished"`
	Simulated   bool          `json:"simulated,omitempty"` // collected from the built-in lab
	Recipe      recipe.Recipe `json:"recipe"`
	Devices     []*Device     `json:"devices"`
	Links       []Link        `json:"links,omitempty"`
	Paths       [][2]string   `json:"paths,omitempty"` // endpoint pairs from the inventory
	Transfers   []Transfer    `json:"transfers,omitempty"`
	// Shard is set when the snapshot holds one shard of the inventory (collect --shard).
	Shard *Shard `json:"shard,omitempty"`
}

// Shard names the part of an inventory a sharded collection holds.
type Shard struct {
	Index int `json:"index"` // 0..Count-1
	Count int `json:"count"`
	// Inventory is every device of the inventory in its order, so merged shards keep the
	// order (and the results) of one unsharded collection and a missing shard is noticed.
	Inventory []string `json:"inventory"`
}

// Role says whether a device is an RDMA host or a switch.
type Role string

// Device roles.
const (
	RoleHost   Role = "host"
	RoleSwitch Role = "switch"
)

// Device is one audited box: identity, reachability, facts and the transcript.
type Device struct {
	Name      string `json:"name"`
	Platform  string `json:"platform"`
	Role      Role   `json:"role"`
	Address   string `json:"address"`
	Reachable bool   `json:"reachable"`
	// Error is why the device could not be reached or audited at all (COLLECT-REACH).
	Error string `json:"error,omitempty"`

	Host   *HostFacts   `json:"host,omitempty"`
	Switch *SwitchFacts `json:"switch,omitempty"`

	Transcript []Exchange `json:"transcript,omitempty"`
}

// Exchange is one command sent and what came back, kept verbatim.
type Exchange struct {
	Command  string  `json:"command"`
	Stdout   string  `json:"stdout"`
	Stderr   string  `json:"stderr,omitempty"`
	ExitCode int     `json:"exit_code"`
	Error    string  `json:"error,omitempty"` // transport error: the command may not have run
	Seconds  float64 `json:"seconds"`
}

// Link joins two device ports. Source is "inventory" or "lldp".
type Link struct {
	A      PortRef `json:"a"`
	B      PortRef `json:"b"`
	Source string  `json:"source"`
}

// PortRef names one port of one device.
type PortRef struct {
	Device    string `json:"device"`
	Interface string `json:"interface"`
}

func (p PortRef) String() string { return p.Device + ":" + p.Interface }
