package nxos

// WatchdogTimersUnread is why the NX-OS collector reports no watchdog timers: the running
// configuration states them only when changed (`priority-flow-control watch-dog interval`,
// `... shutdown-multiplier`, `... auto-restore-multiplier`), and the lab and the public samples
// read show none, so the effective timers are not known from what is collected.
const WatchdogTimersUnread = "the NX-OS watchdog timers (watch-dog interval x shutdown-multiplier, restore multipliers) are " +
	"not in the collected configuration unless changed from the defaults, and are not read"
