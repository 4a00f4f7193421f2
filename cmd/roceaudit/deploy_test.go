package main

import (
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/roceaudit/roceaudit/collectors/platforms"
	"github.com/roceaudit/roceaudit/reports"
)

// acceptCommandLine parses a roceaudit command line from a deploy file with the real command
// tree: the subcommand exists, every flag is known and every --report names a format. It
// returns the files the command line reads and writes.
func acceptCommandLine(t *testing.T, where string, line string) (reads, writes []string) {
	t.Helper()
	fields := strings.Fields(line)
	if len(fields) < 2 || !strings.HasSuffix(fields[0], "roceaudit") {
		t.Fatalf("%s: not a roceaudit command line: %q", where, line)
	}
	root := newRootCmd(platforms.Registry(), strings.NewReader(""), io.Discard, io.Discard)
	cmd, rest, err := root.Find(fields[1:])
	if err != nil || cmd == root {
		t.Fatalf("%s: no subcommand in %q: %v", where, line, err)
	}
	if err := cmd.ParseFlags(rest); err != nil {
		t.Fatalf("%s: %q: %v", where, line, err)
	}
	if args := cmd.Flags().Args(); len(args) > 0 {
		t.Errorf("%s: stray arguments %v", where, args)
	}
	specs, _ := cmd.Flags().GetStringArray("report")
	for _, spec := range specs {
		format, file, _ := strings.Cut(spec, "=")
		if _, err := reports.Lookup(format); err != nil || file == "" {
			t.Errorf("%s: --report %q: %v", where, spec, err)
		}
		writes = append(writes, file)
	}
	if i, _ := cmd.Flags().GetString("inventory"); i != "" {
		reads = append(reads, i)
	}
	if w, _ := cmd.Flags().GetString("waivers"); w != "" {
		reads = append(reads, w)
	}
	return reads, writes
}

func under(path string, dirs []string) bool {
	for _, d := range dirs {
		if strings.HasPrefix(path, strings.TrimSuffix(d, "/")+"/") {
			return true
		}
	}
	return false
}

// The CronJob decodes strictly into the real Kubernetes type (an unknown or misplaced field
// fails), and runs a command line roceaudit accepts, with every file it needs mounted.
func TestKubernetesCronJob(t *testing.T) {
	data, err := os.ReadFile("../../deploy/kubernetes/cronjob.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cj batchv1.CronJob
	if err := yaml.UnmarshalStrict(data, &cj); err != nil {
		t.Fatalf("cronjob.yaml: %v", err)
	}
	if cj.APIVersion != "batch/v1" || cj.Kind != "CronJob" || len(strings.Fields(cj.Spec.Schedule)) != 5 {
		t.Errorf("apiVersion %q kind %q schedule %q", cj.APIVersion, cj.Kind, cj.Spec.Schedule)
	}
	if cj.Spec.ConcurrencyPolicy != batchv1.ForbidConcurrent {
		t.Errorf("concurrencyPolicy %q: two audits of one fabric must not overlap", cj.Spec.ConcurrencyPolicy)
	}
	pod := cj.Spec.JobTemplate.Spec.Template.Spec
	if len(pod.Containers) != 1 || len(pod.Containers[0].Args) != 1 {
		t.Fatalf("want one container with one shell script: %+v", pod.Containers)
	}
	c := pod.Containers[0]
	script := c.Args[0]
	line, _, _ := strings.Cut(script, ";")
	reads, writes := acceptCommandLine(t, "cronjob.yaml", line)
	var mounts []string
	volumes := map[string]bool{}
	for _, v := range pod.Volumes {
		volumes[v.Name] = true
	}
	for _, m := range c.VolumeMounts {
		mounts = append(mounts, m.MountPath)
		if !volumes[m.Name] {
			t.Errorf("mount %s names no volume", m.Name)
		}
	}
	for _, f := range append(reads, writes...) {
		if !under(f, mounts) {
			t.Errorf("%s is on no volume mount %v", f, mounts)
		}
	}
	if !strings.Contains(script, `[ "$rc" -eq 1 ] || [ "$rc" -eq 3 ] && exit 0`) {
		t.Error("the Job fails on findings (exit 1/3), not only on bad input")
	}
	checkHostPathWritable(t, pod, c, writes)
}

// checkHostPathWritable: a hostPath the audit writes to is root's on the node, and fsGroup
// does not apply to it. Either the writer is root (with a read-only root file system), or an
// init container that keeps CAP_CHOWN chowns the mounted directory to the writer's UID. A
// hostPath also ties the metrics to one node, so the pod must be pinned to it.
func checkHostPathWritable(t *testing.T, pod corev1.PodSpec, c corev1.Container, writes []string) {
	t.Helper()
	uid := int64(-1)
	if sc := c.SecurityContext; sc != nil && sc.RunAsUser != nil {
		uid = *sc.RunAsUser
	} else if pod.SecurityContext != nil && pod.SecurityContext.RunAsUser != nil {
		uid = *pod.SecurityContext.RunAsUser
	}
	hostPath := map[string]bool{}
	for _, v := range pod.Volumes {
		hostPath[v.Name] = v.HostPath != nil
	}
	for _, m := range c.VolumeMounts {
		if !hostPath[m.Name] || !slices.ContainsFunc(writes, func(f string) bool { return under(f, []string{m.MountPath}) }) {
			continue
		}
		if pod.NodeSelector["kubernetes.io/hostname"] == "" {
			t.Errorf("volume %s is a hostPath but the pod is pinned to no node: runs land on any node and leave stale metrics", m.Name)
		}
		if uid == 0 {
			if c.SecurityContext == nil || c.SecurityContext.ReadOnlyRootFilesystem == nil || !*c.SecurityContext.ReadOnlyRootFilesystem {
				t.Errorf("the audit runs as root with a writable root file system")
			}
			continue
		}
		if !chownedByInit(pod.InitContainers, m.Name, uid) {
			t.Errorf("UID %d cannot write hostPath volume %s (mounted at %s): no init container chowns it to that UID", uid, m.Name, m.MountPath)
		}
	}
}

// chownedByInit reports whether an init container running as root, with CAP_CHOWN, mounts
// volume and runs "chown UID[:GID] DIR" on the directory it mounts it at.
func chownedByInit(inits []corev1.Container, volume string, uid int64) bool {
	for _, ic := range inits {
		sc := ic.SecurityContext
		if sc == nil || sc.RunAsUser == nil || *sc.RunAsUser != 0 || sc.Capabilities == nil ||
			!slices.Contains(sc.Capabilities.Add, corev1.Capability("CHOWN")) || slices.Contains(sc.Capabilities.Drop, corev1.Capability("CHOWN")) {
			continue
		}
		script := strings.Join(append(slices.Clone(ic.Command), ic.Args...), " ")
		for _, m := range ic.VolumeMounts {
			chown := regexp.MustCompile(`(?:^|[;&|\s])chown ` + strconv.FormatInt(uid, 10) + `(?::\d+)? ` + regexp.QuoteMeta(m.MountPath) + `(?:$|[;&|\s])`)
			if m.Name == volume && chown.MatchString(script) {
				return true
			}
		}
	}
	return false
}

// systemdValue is the value of key in a unit file, continuation lines joined.
func systemdValue(t *testing.T, path, key string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.ReplaceAll(string(data), "\\\n", " ")
	m := regexp.MustCompile(`(?m)^` + key + `=(.*)$`).FindStringSubmatch(joined)
	if m == nil {
		t.Fatalf("%s has no %s=", path, key)
	}
	return m[1]
}

func TestSystemdUnits(t *testing.T) {
	const svc, timer = "../../deploy/systemd/roceaudit.service", "../../deploy/systemd/roceaudit.timer"
	_, writes := acceptCommandLine(t, "roceaudit.service", systemdValue(t, svc, "ExecStart"))
	rw := strings.Fields(systemdValue(t, svc, "ReadWritePaths"))
	for _, f := range writes {
		if !under(f, rw) {
			t.Errorf("%s is not in ReadWritePaths %v (ProtectSystem=strict makes it read-only)", f, rw)
		}
	}
	if got := systemdValue(t, svc, "SuccessExitStatus"); got != "1 3" {
		t.Errorf("SuccessExitStatus=%s, want findings (1, 3) not to fail the unit", got)
	}
	if got := systemdValue(t, timer, "Unit"); got != "roceaudit.service" {
		t.Errorf("timer Unit=%s", got)
	}
	if systemdValue(t, timer, "OnCalendar") == "" || systemdValue(t, timer, "WantedBy") != "timers.target" {
		t.Error("timer has no schedule or is not installable")
	}
}

// cronJob matches an /etc/cron.d line that runs roceaudit: five time fields, the user, the
// roceaudit command line (group 3) and, after ";", what handles its exit status.
var cronJob = regexp.MustCompile(`(?m)^((?:\S+\s+){5})(\S+)\s+(/usr/local/bin/roceaudit audit .*?)(?:;.*)?$`)

// The README's cron line is a command line roceaudit accepts.
func TestREADMECronLine(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := cronJob.FindStringSubmatch(string(data))
	if m == nil {
		t.Fatal("README has no cron line (MIN HOUR DOM MON DOW USER /usr/local/bin/roceaudit audit ...)")
	}
	acceptCommandLine(t, "README cron line", m[3])
}

// deploy/cron/roceaudit is an /etc/cron.d file: comments, variables and one job, whose command
// line roceaudit accepts and which is the line the README shows.
func TestCronFile(t *testing.T) {
	data, err := os.ReadFile("../../deploy/cron/roceaudit")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(string(data), "\n") {
		t.Error("cron ignores a last line without a newline")
	}
	var jobs []string
	for i, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		switch {
		case l == "" || strings.HasPrefix(l, "#") || regexp.MustCompile(`^[A-Z_]+=`).MatchString(l):
		case cronJob.MatchString(l):
			jobs = append(jobs, l)
		default:
			t.Errorf("line %d is neither a comment, a variable nor a roceaudit job: %q", i+1, l)
		}
	}
	if len(jobs) != 1 {
		t.Fatalf("want one job, have %d", len(jobs))
	}
	m := cronJob.FindStringSubmatch(jobs[0])
	if len(strings.Fields(m[1])) != 5 || m[2] == "root" {
		t.Errorf("job %q: want five time fields and an unprivileged user", jobs[0])
	}
	if strings.Contains(jobs[0], "%") {
		t.Error("cron turns % into a newline")
	}
	acceptCommandLine(t, "deploy/cron/roceaudit", m[3])
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "\n"+jobs[0]+"\n") {
		t.Error("the README's cron line is not the one deploy/cron/roceaudit installs")
	}
}
