package cumulus

// WatchdogTimersUnread is why the Cumulus collector reports no watchdog timers: `nv show
// interface <if> qos pfc-watchdog` shows only the port's state and per-class status; the
// timers are switch-wide (`nv set qos pfc-watchdog polling-interval|robustness`, in switchd.conf
// pfc_wd.poll_interval and pfc_wd.robustness, documented defaults 100 ms x 3) and their show
// output was not found in a public source, so it is not parsed.
const WatchdogTimersUnread = "the NVUE watchdog timers are switch-wide (qos pfc-watchdog polling-interval x robustness, " +
	"documented default 100 ms x 3) and not read: the per-port pfc-watchdog view does not show them"
