package reports

import (
	"math"
	"regexp"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/roceaudit/roceaudit/checks"
)

// The text exposition format, line by line (prometheus/docs exposition_formats.md).
var (
	promName    = `[a-zA-Z_:][a-zA-Z0-9_:]*`
	promLabel   = `[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*"`
	promValue   = `(?:[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?|NaN|[-+]Inf)`
	promSample  = regexp.MustCompile(`^(` + promName + `)(\{(?:` + promLabel + `(?:,` + promLabel + `)*)?\})? ` + promValue + `$`)
	promHelp    = regexp.MustCompile(`^# HELP (` + promName + `) (?:[^\\\n]|\\[\\n])*$`)
	promType    = regexp.MustCompile(`^# TYPE (` + promName + `) (counter|gauge|histogram|summary|untyped)$`)
	promLabelRe = regexp.MustCompile(promLabel)
)

// checkExposition validates every line and the family rules node_exporter's textfile
// collector enforces: HELP and TYPE before a family's samples, a family in one block, no
// repeated series.
func checkExposition(t *testing.T, out string) map[string]*dto.MetricFamily {
	t.Helper()
	// Prometheus's own parser first: what it refuses, a textfile collector refuses.
	p := expfmt.NewTextParser(model.LegacyValidation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(out))
	if err != nil {
		t.Errorf("the Prometheus text parser refuses the exposition: %v", err)
	}
	if !strings.HasSuffix(out, "\n") {
		t.Error("exposition does not end with a newline")
	}
	helped, typed, done := map[string]bool{}, map[string]bool{}, map[string]bool{}
	series := map[string]bool{}
	current := ""
	for i, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var name string
		switch {
		case promHelp.MatchString(line):
			name = promHelp.FindStringSubmatch(line)[1]
			helped[name] = true
		case promType.MatchString(line):
			name = promType.FindStringSubmatch(line)[1]
			typed[name] = true
		case promSample.MatchString(line):
			name = promSample.FindStringSubmatch(line)[1]
			if !helped[name] || !typed[name] {
				t.Errorf("line %d: sample of %s before its HELP and TYPE", i+1, name)
			}
			key := line[:strings.LastIndexByte(line, ' ')]
			if series[key] {
				t.Errorf("line %d: series repeated: %s", i+1, key)
			}
			series[key] = true
		default:
			t.Errorf("line %d does not match the exposition grammar: %q", i+1, line)
			continue
		}
		if name != current {
			if done[name] {
				t.Errorf("line %d: family %s is split in two blocks", i+1, name)
			}
			done[current] = true
			current = name
		}
	}
	return fams
}

// gauge is the value of the sample of family name whose labels include want, or NaN.
func gauge(fams map[string]*dto.MetricFamily, name string, want map[string]string) float64 {
	f := fams[name]
	if f == nil {
		return math.NaN()
	}
next:
	for _, m := range f.GetMetric() {
		have := map[string]string{}
		for _, l := range m.GetLabel() {
			have[l.GetName()] = l.GetValue()
		}
		for k, v := range want {
			if have[k] != v {
				continue next
			}
		}
		if f.GetType() != dto.MetricType_GAUGE {
			return math.NaN()
		}
		return m.GetGauge().GetValue()
	}
	return math.NaN()
}

func TestPrometheusGrammar(t *testing.T) {
	out := string(render(t, "prometheus", sampleReport(), Options{}))
	fams := checkExposition(t, out)
	x := map[string]string{"from": "gpu01:ens1f0np0", "to": "gpu02:ens1f0np0"}
	notRun := map[string]string{"from": "gpu02:ens1f0np0", "to": "gpu01:ens1f0np0"}
	for _, c := range []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"roceaudit_transfer_bandwidth_gbps", x, 41.3},
		{"roceaudit_transfer_link_gbps", x, 100},
		{"roceaudit_transfer_ran", x, 1},
		{"roceaudit_transfer_ran", notRun, 0},
		{"roceaudit_transfer_latency_seconds", map[string]string{"from": "gpu01:ens1f0np0", "to": "gpu02:ens1f0np0", "stat": "typical"}, 2.1e-6},
		{"roceaudit_transfer_latency_seconds", map[string]string{"from": "gpu01:ens1f0np0", "to": "gpu02:ens1f0np0", "stat": "p99"}, 3.4e-6},
		{"roceaudit_causes", nil, 6},
		{"roceaudit_cause_results", map[string]string{"device": "gpu01", "interface": "ens1f0np0", "fact": "PFC", "check": "HOST-PFC", "severity": "critical"}, 2},
		{"roceaudit_cause_results", map[string]string{"path": "gpu02:ens1f0np0->gpu01:ens1f0np0", "fact": "transfer", "check": "XFER-RUN"}, 1},
		{"roceaudit_waivers", map[string]string{"state": "expired"}, 1},
		{"roceaudit_audit_timestamp_seconds", nil, 1772442916.345},
	} {
		if got := gauge(fams, c.name, c.labels); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	// Latency is in seconds, exactly as a person would write it, and only where it was measured.
	if !strings.Contains(out, `stat="typical"} 0.0000021`+"\n") {
		t.Errorf("latency not written as 0.0000021 s:\n%s", out)
	}
	if got := gauge(fams, "roceaudit_transfer_latency_seconds", map[string]string{"from": "gpu02:ens1f0np0"}); !math.IsNaN(got) {
		t.Errorf("latency of a transfer without a latency run = %v", got)
	}
	// A transfer that did not run has no bandwidth sample, not a 0.
	if got := gauge(fams, "roceaudit_transfer_bandwidth_gbps", notRun); !math.IsNaN(got) {
		t.Errorf("bandwidth of a transfer that did not run = %v", got)
	}
	for _, want := range []string{
		`roceaudit_check_status{check="SW-PFC",device="leaf1",interface="Ethernet0",path="",status="fail",severity="critical"} 1`,
		`roceaudit_results{status="fail"} 4`,
		`roceaudit_results{status="waived"} 1`,
		`roceaudit_devices_reachable{device="spine2"} 0`,
		`roceaudit_devices_reachable{device="gpu01"} 1`,
		"roceaudit_audit_timestamp_seconds 1772442916.345\n",
		"roceaudit_audit_duration_seconds 12.345\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("exposition lacks %q", want)
		}
	}
}

func TestPrometheusEscaping(t *testing.T) {
	hostile := "a\"b\\c\nd"
	r := &Report{
		Devices: []DeviceSummary{{Name: hostile, Reachable: true}},
		Results: []checks.Result{
			{Check: "SW-MTU", Status: checks.Fail, Severity: checks.Critical, Device: hostile, Interface: `Eth"1`},
			// The same label set twice must give one series.
			{Check: "SW-MTU", Status: checks.Fail, Severity: checks.Critical, Device: hostile, Interface: `Eth"1`},
		},
	}
	out := string(render(t, "prometheus", r, Options{}))
	_ = checkExposition(t, out)
	if !strings.Contains(out, `device="a\"b\\c\nd"`) || !strings.Contains(out, `interface="Eth\"1"`) {
		t.Errorf("label values not escaped:\n%s", out)
	}
	// Unescaping what was written gives the original back.
	for _, m := range promLabelRe.FindAllString(out, -1) {
		if strings.HasPrefix(m, "device=") {
			v := strings.TrimSuffix(strings.TrimPrefix(m, `device="`), `"`)
			if got := strings.NewReplacer(`\\`, `\`, `\"`, `"`, `\n`, "\n").Replace(v); got != hostile {
				t.Errorf("device label unescapes to %q, want %q", got, hostile)
			}
		}
	}
	// An unknown time is left out, never written as year 1.
	if strings.Contains(out, "roceaudit_audit_timestamp_seconds") || strings.Contains(out, "roceaudit_audit_duration_seconds") {
		t.Error("timestamp or duration written for a report without times")
	}
}

// TestPrometheusLatencyFamily: HELP and TYPE once however many transfers measured latency,
// and no family at all when none did.
func TestPrometheusLatencyFamily(t *testing.T) {
	r := sampleReport()
	r.Transfers = append(r.Transfers, Transfer{From: "gpu03:e0", To: "gpu04:e0", BandwidthGbps: 97, LatencyUS: &Latency{Typical: 1.95, P99: 12}})
	out := string(render(t, "prometheus", r, Options{}))
	fams := checkExposition(t, out)
	if n := strings.Count(out, "# TYPE roceaudit_transfer_latency_seconds gauge\n"); n != 1 {
		t.Errorf("latency TYPE written %d times, want once", n)
	}
	if got := len(fams["roceaudit_transfer_latency_seconds"].GetMetric()); got != 4 {
		t.Errorf("latency series = %d, want typical and p99 of two transfers", got)
	}
	if got := gauge(fams, "roceaudit_transfer_latency_seconds", map[string]string{"from": "gpu03:e0", "stat": "p99"}); got != 12e-6 {
		t.Errorf("p99 of gpu03 = %v s, want 12e-6", got)
	}
	for i := range r.Transfers {
		r.Transfers[i].LatencyUS = nil
	}
	if out := string(render(t, "prometheus", r, Options{})); strings.Contains(out, "latency") {
		t.Errorf("a latency family without a latency measured:\n%s", out)
	}
}

// TestPrometheusCleansControlBytes: label values are device text. As in every other format,
// an escape sequence is dropped and any other control byte becomes U+FFFD.
func TestPrometheusCleansControlBytes(t *testing.T) {
	r := &Report{
		Devices: []DeviceSummary{{Name: "gpu\x1b[31m01\x1b[0m", Reachable: true}, {Name: "leaf\x011"}},
		Results: []checks.Result{{Check: "SW-MTU", Status: checks.Fail, Severity: checks.Critical,
			Device: "leaf\x011", Interface: "Eth\x1b]0;owned\x07", Path: "a\x7f->b"}},
		Transfers: []Transfer{{From: "gpu\x0101:e0", To: "gpu02:e0", BandwidthGbps: 90}},
	}
	out := string(render(t, "prometheus", r, Options{}))
	_ = checkExposition(t, out)
	if strings.ContainsFunc(out, func(c rune) bool { return c < 0x20 && c != '\n' || c == 0x7f }) {
		t.Errorf("exposition carries control bytes: %q", out)
	}
	for _, want := range []string{
		`roceaudit_devices_reachable{device="gpu01"} 1`,
		`roceaudit_devices_reachable{device="leaf` + "\uFFFD" + `1"} 0`,
		`device="leaf` + "\uFFFD" + `1",interface="Eth` + "\uFFFD]0;owned\uFFFD" + `",path="a` + "\uFFFD" + `->b"`,
		`from="gpu` + "\uFFFD" + `01:e0"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("exposition lacks %q:\n%s", want, out)
		}
	}
	// Two names that clean to one are one series, not a repeated one.
	r.Devices = append(r.Devices, DeviceSummary{Name: "leaf\x021"})
	_ = checkExposition(t, string(render(t, "prometheus", r, Options{})))
}
