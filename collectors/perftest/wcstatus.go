package perftest

import "strconv"

// wcStatus names ibv_wc_status values as rdma-core's ibv_wc_status_str() does
// (libibverbs/enum_strs.c); perftest before PR #342 printed only the number.
var wcStatus = []string{
	"success", "local length error", "local QP operation error", "local EE context operation error",
	"local protection error", "Work Request Flushed Error", "memory management operation error",
	"bad response error", "local access error", "remote invalid request error", "remote access error",
	"remote operation error", "transport retry counter exceeded", "RNR retry counter exceeded",
	"local RDD violation error", "remote invalid RD request", "aborted error", "invalid EE context number",
	"invalid EE context state", "fatal error", "response timeout error", "general error",
}

// The statuses worth explaining on a RoCE path.
const (
	wcWRFlushErr     = 5
	wcRetryExcErr    = 12
	wcRNRRetryExcErr = 13
)

func wcStatusName(code int) string {
	if code >= 0 && code < len(wcStatus) {
		return wcStatus[code]
	}
	return "status " + strconv.Itoa(code)
}

// wcStatusMeaning says what a completion status means for the path under test.
func wcStatusMeaning(code int) string {
	switch code {
	case wcRetryExcErr:
		return "the peer stopped acknowledging and every retransmission was lost: packets are being dropped on the path (wrong VLAN or subnet, GID on the wrong netdev, no neighbour entry, or drops in the fabric)"
	case wcRNRRetryExcErr:
		return "the receiver kept answering receiver-not-ready: the peer is not posting receives (a peer-side problem, not the path)"
	case wcWRFlushErr:
		return "work requests were flushed after an earlier error put the QP in the error state; the first error is the cause"
	}
	return "the RDMA transfer failed with a work-completion error"
}
