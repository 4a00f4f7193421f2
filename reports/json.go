package reports

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/roceaudit/roceaudit/checks"
)

// jsonRenderer writes roceaudit/report/v1.
type jsonRenderer struct{}

// Render streams the report: the lists that grow with the fabric (results, and the ports they
// name) are encoded one element at a time, so a 10,000-device report is never held whole in
// memory, where json.Encoder would build it compact and then indented (twice its size and
// more). The bytes are those Encoder with a two-space indent writes.
func (jsonRenderer) Render(w io.Writer, r *Report, _ Options) error {
	if r == nil {
		return errNilReport
	}
	n := normalizedHead(r)
	ports := n.Ports
	n.Results, n.Ports = []checks.Result{}, nil
	var head bytes.Buffer
	if err := newJSONEncoder(&head, "").Encode(&n); err != nil {
		return fmt.Errorf("write JSON report: %w", err)
	}
	// The one top-level "results" key (nested keys are indented deeper); "ports" follows it.
	const marker = "\n  \"results\": []"
	hb := head.Bytes()
	at := bytes.Index(hb, []byte(marker))
	if at < 0 {
		return fmt.Errorf("write JSON report: no results list in %.40q", hb)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.Write(hb[:at+len(marker)-2])
	// Results in machine order through a permutation: a sorted copy was a second ~180 MB
	// of Results at 10,000 devices.
	order := sortedOrder(r.Results)
	_ = writeJSONElems(bw, len(order), func(b []byte, i int) ([]byte, error) { // appending cannot fail
		return appendResultJSON(b, &r.Results[order[i]]), nil
	})
	if len(ports) > 0 {
		bw.WriteString(",\n  \"ports\": ")
		if err := writeJSONList(bw, len(ports), func(i int) *PortFacts { return &ports[i] }); err != nil {
			return err
		}
	}
	bw.Write(hb[at+len(marker):])
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write JSON report: %w", err)
	}
	return nil
}

// newJSONEncoder indents as the report does. Evidence and paths carry "->" and "<"; \u003e
// would make the report harder to read and buys nothing outside HTML.
func newJSONEncoder(w io.Writer, prefix string) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetIndent(prefix, "  ")
	enc.SetEscapeHTML(false)
	return enc
}

// writeJSONList writes a top-level list of the report, element by element.
func writeJSONList[T any](bw *bufio.Writer, n int, elem func(int) *T) error {
	var buf bytes.Buffer
	enc := newJSONEncoder(&buf, "    ")
	return writeJSONElems(bw, n, func(b []byte, i int) ([]byte, error) {
		buf.Reset()
		if err := enc.Encode(elem(i)); err != nil {
			return b, fmt.Errorf("write JSON report: %w", err)
		}
		return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...), nil
	})
}

// writeJSONElems writes a top-level list of n elements, each appended by elem as the
// encoder indents it (without its newline).
func writeJSONElems(bw *bufio.Writer, n int, elem func(b []byte, i int) ([]byte, error)) error {
	if n == 0 {
		bw.WriteString("[]")
		return nil
	}
	bw.WriteString("[\n")
	var b []byte
	for i := range n {
		b = b[:0]
		if i > 0 {
			b = append(b, ",\n"...)
		}
		b = append(b, "    "...)
		var err error
		if b, err = elem(b, i); err != nil {
			return err
		}
		bw.Write(b)
	}
	bw.WriteString("\n  ]")
	return nil
}

// normalized is a copy of r as the JSON schema promises it: schema set, results in machine
// order, summary counted from the results with a key for every status, and empty arrays and
// objects instead of null so scripts can iterate without checks.
func normalized(r *Report) Report {
	out := normalizedHead(r)
	out.Results = sortedResults(r.Results)
	return out
}

// normalizedHead is normalized but for the results, which it leaves unsorted.
func normalizedHead(r *Report) Report {
	out := *r
	if out.Schema == "" {
		out.Schema = Schema
	}
	out.Summary = reportSummary(r)
	out.Causes = reportCauses(r)
	out.Devices = nonNil(r.Devices)
	out.Paths = make([]Path, len(r.Paths))
	for i, p := range r.Paths {
		p.Paths = nonNil(p.Paths)
		hops := make([][]Hop, len(p.Paths))
		for j, h := range p.Paths {
			hops[j] = nonNil(h)
		}
		p.Paths = hops
		out.Paths[i] = p
	}
	out.Transfers = make([]Transfer, len(r.Transfers))
	for i, x := range r.Transfers {
		if x.GIDIndex == nil {
			x.GIDIndex = map[string]int{}
		}
		hops := make([]HopCounters, len(x.Hops))
		for j, h := range x.Hops {
			if h.CounterDeltas == nil {
				h.CounterDeltas = map[string]int64{}
			}
			hops[j] = h
		}
		x.Hops = hops
		if c := x.Coverage; c != nil {
			// A member on one leaf crosses no switch-to-switch port: [], never null.
			cc := *c
			cc.Attempts = nonNil(c.Attempts)
			cc.Members = make([]CoverageMember, len(c.Members))
			for j, m := range c.Members {
				m.Ports = nonNil(m.Ports)
				cc.Members[j] = m
			}
			x.Coverage = &cc
		}
		out.Transfers[i] = x
	}
	return out
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
