package reports

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// prometheusRenderer writes the text exposition format for node_exporter's textfile
// collector: no timestamps on samples (the collector rejects them), every family with HELP
// and TYPE, each label set once.
type prometheusRenderer struct{}

func (prometheusRenderer) Render(w io.Writer, r *Report, _ Options) error {
	if r == nil {
		return errNilReport
	}
	// Label values are device text: as in every other format, escape sequences go and other
	// control bytes become U+FFFD (the exposition format would carry them raw).
	r = cleanReport(r)
	// Streamed, and the results walked in order by index: built whole, with a sorted copy of
	// the results and every label set in one map, a 10,000-device report took ~1.1 GB.
	b := bufio.NewWriterSize(w, 64<<10)
	family := func(name, help string) {
		fmt.Fprintf(b, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name)
	}

	family("roceaudit_check_status", "Outcome of one check on one object: 1 for the status label the check has.")
	// Equal label sets share check, device, interface and path, which lead the sort: they
	// can only repeat within one run of those, so what was seen is forgotten between runs.
	seen := map[string]bool{}
	var run [4]string
	for _, i := range sortedOrder(r.Results) {
		res := &r.Results[i]
		if k := [4]string{res.Check, res.Device, res.Interface, res.Path}; k != run {
			run = k
			clear(seen)
		}
		// path tells apart the per-path results of one check on one port (and path checks,
		// which have no device); without it those series would collide.
		labels := promLabels(
			"check", res.Check, "device", res.Device, "interface", res.Interface, "path", res.Path,
			"status", string(res.Status), "severity", string(res.Severity),
		)
		// The textfile collector rejects a repeated series, so each label set is written once
		// even if two results share it.
		if seen[labels] {
			continue
		}
		seen[labels] = true
		fmt.Fprintf(b, "roceaudit_check_status%s 1\n", labels)
	}

	family("roceaudit_results", "Number of check results per status.")
	sum := Summarize(r.Results)
	for _, s := range reportStatuses(r) {
		fmt.Fprintf(b, "roceaudit_results%s %d\n", promLabels("status", string(s)), sum[s])
	}

	family("roceaudit_devices_reachable", "Whether the device was reached over SSH and audited (1) or not (0).")
	clear(seen)
	for _, d := range r.Devices {
		up := 0
		if d.Reachable {
			up = 1
		}
		// Two names the cleaning made one would be a repeated series, which the collector rejects.
		if l := promLabels("device", d.Name); !seen[l] {
			seen[l] = true
			fmt.Fprintf(b, "roceaudit_devices_reachable%s %d\n", l, up)
		}
	}

	family("roceaudit_audit_info", "The audit run: tool version and whether the fabric was the built-in simulation.")
	fmt.Fprintf(b, "roceaudit_audit_info%s 1\n", promLabels("tool_version", r.ToolVersion, "simulated", strconv.FormatBool(r.Simulated)))

	// Times are left out rather than written as year 1 when the report does not know them.
	if !r.Finished.IsZero() {
		family("roceaudit_audit_timestamp_seconds", "Unix time the audit finished.")
		fmt.Fprintf(b, "roceaudit_audit_timestamp_seconds %s\n", promFloat(float64(r.Finished.UnixMilli())/1e3))
	}
	if !r.Started.IsZero() && !r.Finished.IsZero() && !r.Finished.Before(r.Started) {
		family("roceaudit_audit_duration_seconds", "Wall time of the audit, collection included.")
		fmt.Fprintf(b, "roceaudit_audit_duration_seconds %s\n", promFloat(r.Finished.Sub(r.Started).Seconds()))
	}

	writePromTransfers(b, r, family)
	writePromCauses(b, r, family)
	if r.Waivers != nil {
		family("roceaudit_waivers", "Entries of the waiver file by state: applied (results waived), expired, unused.")
		fmt.Fprintf(b, "roceaudit_waivers%s %d\n", promLabels("state", "applied"), r.Waivers.Applied)
		fmt.Fprintf(b, "roceaudit_waivers%s %d\n", promLabels("state", "expired"), len(r.Waivers.Expired))
		fmt.Fprintf(b, "roceaudit_waivers%s %d\n", promLabels("state", "unused"), len(r.Waivers.Unused))
	}

	if err := b.Flush(); err != nil {
		return fmt.Errorf("write Prometheus report: %w", err)
	}
	return nil
}

// promLabels formats name/value pairs as {a="x",b="y"}.
func promLabels(kv ...string) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := 0; i+1 < len(kv); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(kv[i])
		b.WriteString(`="`)
		b.WriteString(promEscape(kv[i+1]))
		b.WriteByte('"')
	}
	b.WriteByte('}')
	return b.String()
}

// promWith is a label set of promLabels with one more pair at its end.
func promWith(labels, name, value string) string {
	return strings.TrimSuffix(labels, "}") + "," + strings.TrimPrefix(promLabels(name, value), "{")
}

// promEscape escapes a label value as the exposition format requires: backslash, double
// quote and line feed. One replacer for the run: built per label value (six a result), it
// was ~50 s of a 10,000-device report.
func promEscape(s string) string { return promEscaper.Replace(s) }

var promEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)

func promFloat(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// promMicros is a time in microseconds as seconds, shifted in decimal: 2.1 us / 1e6 is
// 0.0000021000000000000002 in binary floating point.
func promMicros(us float64) string {
	s, err := strconv.ParseFloat(strconv.FormatFloat(us, 'g', -1, 64)+"e-6", 64)
	if err != nil { // what 'g' writes with an exponent, or NaN and Inf, takes no second one
		s = us / 1e6
	}
	return promFloat(s)
}

// writePromTransfers writes each test transfer's bandwidth and whether it ran; a transfer
// that did not run has no bandwidth sample rather than a 0 that would read as a measurement.
func writePromTransfers(b io.Writer, r *Report, family func(name, help string)) {
	if len(r.Transfers) == 0 {
		return
	}
	seen := map[string]bool{}
	type row struct {
		labels string
		x      Transfer
	}
	var rows []row
	for _, x := range r.Transfers {
		l := promLabels("from", x.From, "to", x.To)
		if !seen[l] {
			seen[l] = true
			rows = append(rows, row{l, x})
		}
	}
	family("roceaudit_transfer_ran", "Whether the test transfer ran to completion (1) or not (0).")
	for _, rw := range rows {
		ran := 1
		if rw.x.Error != "" {
			ran = 0
		}
		fmt.Fprintf(b, "roceaudit_transfer_ran%s %d\n", rw.labels, ran)
	}
	family("roceaudit_transfer_bandwidth_gbps", "Bandwidth the test transfer reached, in Gb/s.")
	for _, rw := range rows {
		if rw.x.Error == "" || rw.x.BandwidthGbps > 0 {
			fmt.Fprintf(b, "roceaudit_transfer_bandwidth_gbps%s %s\n", rw.labels, promFloat(rw.x.BandwidthGbps))
		}
	}
	// Latency in seconds, the base unit every time of this exposition is in; the stat label
	// carries the report's own names (typical, p99). Only transfers run with --latency have it.
	if slices.ContainsFunc(rows, func(rw row) bool { return rw.x.LatencyUS != nil }) {
		family("roceaudit_transfer_latency_seconds", "Latency the test transfer measured (ib_write_lat): stat typical or p99, in seconds.")
		for _, rw := range rows {
			if l := rw.x.LatencyUS; l != nil {
				fmt.Fprintf(b, "roceaudit_transfer_latency_seconds%s %s\n", promWith(rw.labels, "stat", "typical"), promMicros(l.Typical))
				fmt.Fprintf(b, "roceaudit_transfer_latency_seconds%s %s\n", promWith(rw.labels, "stat", "p99"), promMicros(l.P99))
			}
		}
	}
	family("roceaudit_transfer_link_gbps", "Speed of the slowest link on the transfer's paths, in Gb/s.")
	for _, rw := range rows {
		if rw.x.LinkGbps > 0 {
			fmt.Fprintf(b, "roceaudit_transfer_link_gbps%s %s\n", rw.labels, promFloat(rw.x.LinkGbps))
		}
	}
}

// writePromCauses writes how many results each cause explains, so an alert can name the
// port to fix rather than the forty results that follow from it.
func writePromCauses(b io.Writer, r *Report, family func(name, help string)) {
	cs := reportCauses(r)
	family("roceaudit_causes", "Number of distinct causes that explain the failures, errors and warnings.")
	fmt.Fprintf(b, "roceaudit_causes %d\n", len(cs))
	if len(cs) == 0 {
		return
	}
	family("roceaudit_cause_results", "Results one cause explains (a port's fact, a device, a transfer).")
	sum := map[string]int{}
	var order []string
	for _, c := range cs {
		l := promLabels("device", c.Device, "interface", c.Interface, "path", c.Path, "fact", c.Fact,
			"check", c.Check, "severity", string(c.Severity))
		if _, ok := sum[l]; !ok {
			order = append(order, l)
		}
		sum[l] += c.Total()
	}
	for _, l := range order {
		fmt.Fprintf(b, "roceaudit_cause_results%s %d\n", l, sum[l])
	}
}
