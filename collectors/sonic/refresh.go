package sonic

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/roceaudit/roceaudit/collectors"
)

// DefaultPortPoll is how often SONiC's flex counters refresh the port counters (PFC pause
// frames among them) when FLEX_COUNTER_TABLE|PORT sets no POLL_INTERVAL.
const DefaultPortPoll = 1000 * time.Millisecond

// DefaultQueuePoll is the queue counters' refresh (the drops XFER-RETRANS reads) when
// FLEX_COUNTER_TABLE|QUEUE sets no POLL_INTERVAL: sonic-utilities counterpoll shows
// QUEUE_STAT "default (10000)".
const DefaultQueuePoll = 10000 * time.Millisecond

// CounterRefresh reads, read-only from CONFIG_DB, how often the counters a transfer compares
// are refreshed: the longest POLL_INTERVAL (ms) of FLEX_COUNTER_TABLE|PORT, |QUEUE and |PFCWD,
// each group's default when unset. `show pfc counters` and `show queue counters` read
// COUNTERS_DB, so a sample taken sooner than one interval after the traffic stopped may miss
// the last of it.
func (Platform) CounterRefresh(ctx context.Context, r collectors.Runner) (time.Duration, error) {
	out, err := r.Run(ctx, CmdRunningConfig)
	if err != nil {
		return DefaultPortPoll, fmt.Errorf("%s: %w", CmdRunningConfig, err)
	}
	if out.ExitCode != 0 {
		return DefaultPortPoll, fmt.Errorf("%s: exit status %d", CmdRunningConfig, out.ExitCode)
	}
	db, err := ParseRunningConfig(out.Stdout)
	if err != nil {
		return DefaultPortPoll, err
	}
	return db.counterPoll()
}

func (db *ConfigDB) counterPoll() (time.Duration, error) {
	var longest time.Duration
	for _, g := range []struct {
		group string
		def   time.Duration // 0: no refresh of its own to wait for when unset
	}{{"PORT", DefaultPortPoll}, {"QUEUE", DefaultQueuePoll}, {"PFCWD", 0}} {
		v, ok := db.Field("FLEX_COUNTER_TABLE", g.group, "POLL_INTERVAL")
		if !ok {
			longest = max(longest, g.def)
			continue
		}
		ms, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || ms <= 0 {
			return max(DefaultPortPoll, DefaultQueuePoll), fmt.Errorf("FLEX_COUNTER_TABLE|%s POLL_INTERVAL %q: expected milliseconds", g.group, v)
		}
		longest = max(longest, time.Duration(ms)*time.Millisecond)
	}
	return longest, nil
}
