package linux

import (
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/collectors"
)

// fixtureKeys name the fixture file of each command template. A concrete command's file is
// KEY, or KEY.VAR[.VAR] with the placeholder values in template order ({if}; {dev}.{port}).
var fixtureKeys = []struct{ template, key string }{
	{CmdIPAddr, "ip_addr"},
	{CmdRdmaLink, "rdma_link"},
	{CmdIbvDevinfo, "ibv_devinfo"},
	{CmdGIDs, "gids"},
	{CmdNCCLConf, "nccl.conf"},
	{CmdLLDPAD, "lldpad"},
	{CmdLLDPNeighbors, "lldpcli"},
	{CmdAppSettings, "app_settings"},
	{CmdPgrepLLDPAD, "pgrep_lldpad"},
	{CmdMlnxQos, "mlnx_qos"},
	{CmdDcbApp, "dcb_app"},
	{CmdDcbPFC, "dcb_pfc"},
	{CmdDcbDCBX, "dcb_dcbx"},
	{CmdEthtoolPause, "ethtool_a"},
	{CmdECN, "ecn"},
	{CmdTrafficClass, "traffic_class"},
	{CmdDefaultRoCEToS, "default_roce_tos"},
	{CmdEthtoolStats, "ethtool_S"},
	{CmdHwCounters, "hw_counters"},
	{CmdPFCTunable, "pfc_tunable"},
}

var placeholderRe = regexp.MustCompile(`\\\{(if|dev|port)\\\}`)

// FixtureFile names the file under fixtures/linux/<scenario>/ that holds a command's output
// (stdout; FILE.stderr and FILE.exit hold stderr and a non-zero exit code when there is one).
// A "sudo -n " prefix is ignored. ok is false for a command outside the command set.
func FixtureFile(command string) (string, bool) {
	command = strings.TrimPrefix(command, collectors.SudoPrefix)
	for _, fk := range fixtureKeys {
		var names []string
		expr := placeholderRe.ReplaceAllStringFunc(regexp.QuoteMeta(fk.template), func(ph string) string {
			names = append(names, ph)
			return `([A-Za-z0-9][A-Za-z0-9_.:@-]{0,63})`
		})
		m := regexp.MustCompile("^" + expr + "$").FindStringSubmatch(command)
		if m == nil {
			continue
		}
		// {if} repeats in the ecn grep: every occurrence must name the same netdev.
		vals := map[string]string{}
		var parts []string
		for i, ph := range names {
			if prev, dup := vals[ph]; dup {
				if prev != m[i+1] {
					return "", false
				}
				continue
			}
			vals[ph] = m[i+1]
			parts = append(parts, m[i+1])
		}
		return strings.Join(append([]string{fk.key}, parts...), "."), true
	}
	return "", false
}

// ReadFixture answers a command from a fixture directory (os.DirFS or an embed.FS): stdout
// from FILE, stderr from FILE.stderr, the exit code from FILE.exit (0 when absent). It fails
// with fs.ErrNotExist when the scenario has none of the three files.
func ReadFixture(fsys fs.FS, command string) (collectors.Output, error) {
	name, ok := FixtureFile(command)
	if !ok {
		return collectors.Output{}, fmt.Errorf("fixture for %q: %w", command, collectors.ErrNotAllowed)
	}
	var out collectors.Output
	found := false
	read := func(file string) (string, error) {
		b, err := fs.ReadFile(fsys, file)
		if errors.Is(err, fs.ErrNotExist) {
			return "", nil
		}
		if err != nil {
			return "", fmt.Errorf("fixture %s: %w", file, err)
		}
		found = true
		return string(b), nil
	}
	var err error
	if out.Stdout, err = read(name); err != nil {
		return out, err
	}
	if out.Stderr, err = read(name + ".stderr"); err != nil {
		return out, err
	}
	code, err := read(name + ".exit")
	if err != nil {
		return out, err
	}
	if code != "" {
		if out.ExitCode, err = strconv.Atoi(strings.TrimSpace(code)); err != nil {
			return out, fmt.Errorf("fixture %s.exit: %q is not an exit code", name, code)
		}
	}
	if !found {
		return out, fmt.Errorf("fixture %s for %q: %w", name, command, fs.ErrNotExist)
	}
	return out, nil
}
