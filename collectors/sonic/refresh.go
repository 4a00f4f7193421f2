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

// CounterRefresh reads, read-only from CONFIG_DB, how often the counters a transfer compares
// are refreshed: the longest POLL_INTERVAL (ms) of FLEX_COUNTER_TABLE|PORT and |PFCWD, the
// port default when unset. `show pfc counters` reads COUNTERS_DB, so a sample taken sooner
// than one interval after the traffic stopped may miss the last of it.
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
	longest := DefaultPortPoll
	if _, ok := db.Field("FLEX_COUNTER_TABLE", "PORT", "POLL_INTERVAL"); ok {
		longest = 0 // set: it replaces the default
	}
	for _, group := range []string{"PORT", "PFCWD"} {
		v, ok := db.Field("FLEX_COUNTER_TABLE", group, "POLL_INTERVAL")
		if !ok {
			continue
		}
		ms, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || ms <= 0 {
			return DefaultPortPoll, fmt.Errorf("FLEX_COUNTER_TABLE|%s POLL_INTERVAL %q: expected milliseconds", group, v)
		}
		longest = max(longest, time.Duration(ms)*time.Millisecond)
	}
	return longest, nil
}
