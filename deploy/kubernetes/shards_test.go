package kubernetes

import (
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// decodeJob reads a manifest strictly into the real Job type: an unknown or misspelt field,
// a duplicate key or a wrong type fails.
func decodeJob(t *testing.T, file string) *batchv1.Job {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var job batchv1.Job
	if err := yaml.UnmarshalStrict(raw, &job); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if job.APIVersion != "batch/v1" || job.Kind != "Job" || job.Name == "" {
		t.Fatalf("%s: %s %s %q", file, job.APIVersion, job.Kind, job.Name)
	}
	return &job
}

// onlyContainer returns the pod's one container, checking what every roceaudit pod needs: it
// runs roceaudit, unprivileged, never restarted in place, and mounts only declared volumes.
func onlyContainer(t *testing.T, file string, pod corev1.PodSpec) corev1.Container {
	t.Helper()
	if len(pod.Containers) != 1 {
		t.Fatalf("%s: %d containers, want 1", file, len(pod.Containers))
	}
	c := pod.Containers[0]
	if pod.RestartPolicy != corev1.RestartPolicyNever {
		t.Errorf("%s: restartPolicy %q, want Never (a Job retries whole pods)", file, pod.RestartPolicy)
	}
	if !slices.Equal(c.Command, []string{"roceaudit"}) {
		t.Errorf("%s: command %q", file, c.Command)
	}
	sc := c.SecurityContext
	if sc == nil || sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation ||
		sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem {
		t.Errorf("%s: container must not escalate and must have a read-only root", file)
	}
	if pod.SecurityContext == nil || pod.SecurityContext.RunAsNonRoot == nil || !*pod.SecurityContext.RunAsNonRoot {
		t.Errorf("%s: pod must run as non-root", file)
	}
	declared := map[string]bool{}
	for _, v := range pod.Volumes {
		declared[v.Name] = true
	}
	for _, m := range c.VolumeMounts {
		if !declared[m.Name] {
			t.Errorf("%s: mount of undeclared volume %q", file, m.Name)
		}
	}
	if _, ok := c.Resources.Limits[corev1.ResourceMemory]; !ok {
		t.Errorf("%s: no memory limit", file)
	}
	return c
}

// flagValue is the value following flag in args.
func flagValue(args []string, flag string) (string, bool) {
	i := slices.Index(args, flag)
	if i < 0 || i+1 >= len(args) {
		return "", false
	}
	return args[i+1], true
}

var shardArg = regexp.MustCompile(`^\$\(JOB_COMPLETION_INDEX\)/([0-9]+)$`)

// The collect Job: one pod per shard, its completion index the shard, each writing its own
// gzip snapshot to the shared volume; and the check Job merges exactly those N files and
// writes every report format to the volume.
func TestShardJobsFitTogether(t *testing.T) {
	collect := decodeJob(t, "collect-shards-job.yaml")
	spec := collect.Spec
	if spec.CompletionMode == nil || *spec.CompletionMode != batchv1.IndexedCompletion {
		t.Fatal("collect Job must be Indexed: the completion index is the shard")
	}
	if spec.Completions == nil || spec.Parallelism == nil {
		t.Fatal("collect Job: completions and parallelism must be set")
	}
	n := int(*spec.Completions)
	if int(*spec.Parallelism) != n {
		t.Errorf("parallelism %d, completions %d: all shards should run at once", *spec.Parallelism, n)
	}
	c := onlyContainer(t, "collect-shards-job.yaml", spec.Template.Spec)
	if len(c.Args) == 0 || c.Args[0] != "collect" {
		t.Fatalf("collect args %q", c.Args)
	}
	shard, _ := flagValue(c.Args, "--shard")
	m := shardArg.FindStringSubmatch(shard)
	if m == nil {
		t.Fatalf("--shard %q: want $(JOB_COMPLETION_INDEX)/N", shard)
	}
	if got, _ := strconv.Atoi(m[1]); got != n {
		t.Errorf("--shard .../%d but completions %d", got, n)
	}
	out, _ := flagValue(c.Args, "-o")
	if !strings.Contains(out, "$(JOB_COMPLETION_INDEX)") || !strings.HasSuffix(out, ".json.gz") {
		t.Errorf("-o %q: each shard needs its own compressed snapshot", out)
	}
	snapshotsAt := mountOf(t, c, "snapshots")
	if !strings.HasPrefix(out, snapshotsAt+"/") {
		t.Errorf("-o %q is not on the snapshots volume (%s)", out, snapshotsAt)
	}
	// A podFailurePolicy needs Never, and exit 2 (bad input) must not be retried.
	if pfp := spec.PodFailurePolicy; pfp == nil || !slices.ContainsFunc(pfp.Rules, func(r batchv1.PodFailurePolicyRule) bool {
		return r.Action == batchv1.PodFailurePolicyActionFailJob && r.OnExitCodes != nil && slices.Contains(r.OnExitCodes.Values, 2)
	}) {
		t.Error("collect Job: exit 2 (usage) should fail the Job at once")
	}

	check := decodeJob(t, "check-merge-job.yaml")
	cc := onlyContainer(t, "check-merge-job.yaml", check.Spec.Template.Spec)
	if len(cc.Args) == 0 || cc.Args[0] != "check" {
		t.Fatalf("check args %q", cc.Args)
	}
	var files []string
	for _, a := range cc.Args[1:] {
		if strings.HasPrefix(a, "-") {
			break
		}
		files = append(files, a)
	}
	var want []string
	for k := range n {
		want = append(want, strings.ReplaceAll(out, "$(JOB_COMPLETION_INDEX)", strconv.Itoa(k)))
	}
	if !slices.Equal(files, want) {
		t.Errorf("check merges %q, want the %d shards the collect Job writes %q", files, n, want)
	}
	if at := mountOf(t, cc, "snapshots"); at != snapshotsAt {
		t.Errorf("check mounts the snapshots at %s, collect at %s", at, snapshotsAt)
	}
	if claimOf(t, collect, "snapshots") != claimOf(t, check, "snapshots") {
		t.Error("the two Jobs use different snapshot claims")
	}
	formats := map[string]bool{}
	for i, a := range cc.Args {
		if a == "--report" && i+1 < len(cc.Args) {
			format, file, _ := strings.Cut(cc.Args[i+1], "=")
			formats[format] = true
			if !strings.HasPrefix(file, snapshotsAt+"/") {
				t.Errorf("report %s is not written to the volume", file)
			}
		}
	}
	for _, f := range []string{"text", "json", "junit", "html", "markdown", "prometheus"} {
		if !formats[f] {
			t.Errorf("check Job writes no %s report", f)
		}
	}
}

func mountOf(t *testing.T, c corev1.Container, volume string) string {
	t.Helper()
	for _, m := range c.VolumeMounts {
		if m.Name == volume {
			return m.MountPath
		}
	}
	t.Fatalf("container %s does not mount %s", c.Name, volume)
	return ""
}

// claimOf is the PersistentVolumeClaim behind a Job's volume.
func claimOf(t *testing.T, job *batchv1.Job, volume string) string {
	t.Helper()
	for _, v := range job.Spec.Template.Spec.Volumes {
		if v.Name == volume && v.PersistentVolumeClaim != nil {
			return v.PersistentVolumeClaim.ClaimName
		}
	}
	t.Fatalf("%s: no claim volume %s", job.Name, volume)
	return ""
}

// Strict decoding is what catches a misspelt field: the same Job with a typo fails.
func TestStrictDecodingRefusesTypos(t *testing.T) {
	raw, err := os.ReadFile("collect-shards-job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	typo := strings.Replace(string(raw), "completionMode:", "completionMod:", 1)
	var job batchv1.Job
	if err := yaml.UnmarshalStrict([]byte(typo), &job); err == nil {
		t.Error("a misspelt field was accepted")
	}
}
