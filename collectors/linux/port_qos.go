package linux

import (
	"context"
	"strings"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/internal/memo"
	"github.com/roceaudit/roceaudit/topology"
)

// collectQoS reads trust, DSCP map, PFC, ETS and the DCB owner with mlnx_qos, falling back to
// iproute2 dcb when mlnx_qos is missing or unusable. Both attempts stay in the evidence.
func (w *portWork) collectQoS(ctx context.Context, e executor) {
	mq := w.run(ctx, e, CmdMlnxQos)
	var mqWhy string
	if mq.ok() {
		q, err := w.parseMlnxQos(mq)
		if err == nil {
			w.p.QoS = topology.Known(q, topology.Evidence{Command: mq.cmd, Excerpt: w.mq.excerpts.qos})
			w.dcbxSrc = topology.Evidence{Command: mq.cmd, Excerpt: w.mq.excerpts.dcbx}
			if q.DCBXMode == "" {
				w.dcbxErr = "mlnx_qos printed no `DCBX mode:` line (mlnx_qos older than MLNX_OFED 4.2)"
			}
			return
		}
		mqWhy = err.Error()
	} else {
		mqWhy = mq.failure()
	}
	attempt := mq.cmd + ": " + mqWhy // needsDcb(mq) holds here

	app := w.run(ctx, e, CmdDcbApp)
	pfc := w.run(ctx, e, CmdDcbPFC)
	dcbx := w.run(ctx, e, CmdDcbDCBX)
	cmds := strings.Join([]string{mq.cmd, app.cmd, pfc.cmd, dcbx.cmd}, "; ")
	for _, r := range []result{app, pfc} {
		if !r.ok() {
			w.p.QoS = topology.Unknown[topology.HostQoS](topology.Evidence{Command: cmds,
				Error: attempt + "; fallback " + r.cmd + ": " + r.failure()})
			w.dcbxErr = "DCB state unreadable: " + w.p.QoS.Source.Error
			return
		}
	}
	dcbxText := ""
	if dcbx.ok() {
		dcbxText = dcbx.out.Stdout
	}
	q, err := ParseDcb(app.out.Stdout, pfc.out.Stdout, dcbxText)
	if err != nil {
		w.p.QoS = topology.Unknown[topology.HostQoS](topology.Evidence{Command: cmds, Error: attempt + "; fallback: " + err.Error()})
		w.dcbxErr = "DCB state unreadable: " + err.Error()
		return
	}
	excerpt := strings.Join([]string{attempt, strings.TrimSpace(app.out.Stdout), strings.TrimSpace(pfc.out.Stdout), strings.TrimSpace(dcbx.out.Stdout)}, "\n")
	w.p.QoS = topology.Known(q, topology.Evidence{Command: cmds, Excerpt: strings.TrimSpace(excerpt)})
	w.dcbxSrc = topology.Evidence{Command: dcbx.cmd, Excerpt: strings.TrimSpace(dcbx.out.Stdout)}
	if !dcbx.ok() {
		w.dcbxErr = dcbx.cmd + ": " + dcbx.failure()
	}
}

// needsDcb is an mlnx_qos answer that collectQoS falls back to dcb after.
func (w *portWork) needsDcb(mq result) bool {
	if !mq.ok() {
		return true
	}
	_, err := w.parseMlnxQos(mq)
	return err != nil
}

// parseMlnxQos is ParseMlnxQos of mq, parsed once (with its excerpts, kept in w.mq) for
// needsDcb and collectQoS (twice was 2% of an 8-rail 1k audit's CPU). Each port's tasks
// run one at a time on its work.
func (w *portWork) parseMlnxQos(mq result) (topology.HostQoS, error) {
	if w.mq == nil || w.mq.stdout != mq.out.Stdout {
		if w.qosParses != nil {
			w.mq = w.qosParses.Get(mq.out.Stdout)
		} else {
			w.mq = parseQoS(mq.out.Stdout)
		}
	}
	return w.mq.q, w.mq.err
}

func parseQoS(stdout string) *parsedQoS {
	q, ex, err := readMlnxQos(stdout, true)
	return &parsedQoS{stdout: stdout, q: q, excerpts: ex, err: err}
}

// qosParsesOf remembers readMlnxQos by output for a collection run (nil outside one): a
// fabric configured alike prints the same mlnx_qos on every port of every host, and its
// parse (64 DSCP entries into a map) was 17% of an 8-rail host's collection and 12% of its
// allocation. Facts are read-only once collected, so the run's ports share the maps (detach
// shares such maps anyway). Bounded: the text comes from devices.
func qosParsesOf(ctx context.Context) *memo.Memo[*parsedQoS] {
	m := collectors.RunMemoOf(ctx)
	if m == nil {
		return nil
	}
	return m.Load(qosParsesKey{}, func() any {
		return memo.New(64, func(stdout string) *parsedQoS {
			return parseQoS(strings.Clone(stdout)) // the excerpts are pieces of it: no device's output is kept
		})
	}).(*memo.Memo[*parsedQoS])
}

type qosParsesKey struct{}

// parsedQoS is one mlnx_qos output and what readMlnxQos made of it.
type parsedQoS struct {
	stdout   string
	q        topology.HostQoS
	excerpts qosExcerpts
	err      error
}
