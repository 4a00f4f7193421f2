package linux

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/roceaudit/roceaudit/topology"
)

// appKey is a knob CmdAppSettings selects, after an optional `export`.
var appKey = regexp.MustCompile(`^\s*(?:export\s+)?((?:NCCL_IB_|UCX_IB_TRAFFIC_CLASS)[A-Za-z0-9_]*)\s*=(.*)$`)

// ParseAppSettings reads `grep -H` output of KEY=VALUE lines, as FILE:LINE, in the order the
// files were named. Values lose surrounding quotes and a trailing shell comment; a matching
// line that is no assignment (`export NCCL_IB_HCA` alone) is skipped, as the shell would
// export nothing new.
func ParseAppSettings(text string) ([]topology.AppSetting, error) {
	out := []topology.AppSetting{}
	for n, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if line == "" {
			continue
		}
		file, rest, ok := strings.Cut(line, ":")
		if !ok || !strings.HasPrefix(file, "/") {
			return nil, fmt.Errorf("grep line %d: %q is not FILE:LINE", n+1, line)
		}
		m := appKey.FindStringSubmatch(rest)
		if m == nil {
			continue
		}
		out = append(out, topology.AppSetting{Key: m[1], Value: shellValue(m[2]), File: file})
	}
	return out, nil
}

// shellValue is the word a shell assignment gives: quotes removed, a `#` comment after a
// blank dropped.
func shellValue(v string) string {
	v = strings.TrimSpace(v)
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') {
		if end := strings.IndexByte(v[1:], v[0]); end >= 0 {
			return v[1 : 1+end]
		}
	}
	if i := strings.Index(v, " #"); i >= 0 {
		v = v[:i]
	}
	if i := strings.Index(v, "\t#"); i >= 0 {
		v = v[:i]
	}
	return strings.TrimSpace(v)
}

// appSettingsFact reads the application knobs. grep exits 1 when no line matches and 2 when a
// named file is absent (-s only silences the message), both normal here: any run that printed
// no grep error is a reading.
func appSettingsFact(r result) topology.Fact[[]topology.AppSetting] {
	src := topology.Evidence{Command: r.cmd, Excerpt: strings.TrimSpace(r.out.Stdout)}
	if !r.ran() || r.commandMissing() || r.out.ExitCode > 2 {
		src.Error = "cannot read the application settings: " + r.failure()
		return topology.Unknown[[]topology.AppSetting](src)
	}
	s, err := ParseAppSettings(r.out.Stdout)
	if err != nil {
		src.Error = err.Error()
		return topology.Unknown[[]topology.AppSetting](src)
	}
	if src.Excerpt == "" {
		src.Excerpt = fmt.Sprintf("(no NCCL_IB_* or UCX_IB_TRAFFIC_CLASS line; grep exit %d)", r.out.ExitCode)
	}
	return topology.Known(s, src)
}
