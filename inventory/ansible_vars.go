package inventory

import (
	"slices"
	"strings"
)

// Ansible spells some connection variables two ways; when both are set, the later name in
// each list wins, as Ansible's connection options resolve them.
var (
	ansHostVars = []string{ansHost, "ansible_ssh_host"}
	ansUserVars = []string{ansUser, "ansible_ssh_user"}
	ansPortVars = []string{ansPort, "ansible_ssh_port"}
	ansKeyVars  = []string{"ansible_private_key_file", ansKey}
)

// ansibleOtherVars are Ansible's own variables that roceaudit has no use for: read
// quietly. Any other ansible_ variable is most likely a typo and is warned about.
var ansibleOtherVars = []string{
	"ansible_connection", "ansible_become_method", "ansible_become_user", "ansible_become_exe",
	"ansible_become_flags", "ansible_become_password", "ansible_become_pass",
	"ansible_sftp_extra_args",
	"ansible_scp_extra_args", "ansible_ssh_args", "ansible_ssh_executable", "ansible_ssh_pipelining",
	"ansible_pipelining", "ansible_ssh_retries", "ansible_ssh_timeout", "ansible_timeout",
	"ansible_ssh_host_key_checking", "ansible_host_key_checking", "ansible_ssh_transfer_method",
	"ansible_ssh_use_tty", "ansible_ssh_control_path", "ansible_ssh_control_path_dir",
	"ansible_shell_type", "ansible_shell_executable", "ansible_python_interpreter",
	"ansible_remote_tmp", "ansible_command_timeout", "ansible_connect_timeout",
	"ansible_network_cli_ssh_type", "ansible_terminal_stdout_re", "ansible_terminal_stderr_re",
	"ansible_facts", "ansible_network_import_modules", ansPriority,
}

// ansibleOtherPrefixes are families of connection-plugin variables (httpapi, netconf, ...).
var ansibleOtherPrefixes = []string{
	"ansible_httpapi_", "ansible_netconf_", "ansible_winrm_", "ansible_psrp_", "ansible_libssh_",
	"ansible_paramiko_", "ansible_persistent_", "ansible_docker_", "ansible_podman_",
	"ansible_kubectl_", "ansible_aws_ssm_", "ansible_ssh_private_key_passphrase",
}

// ansiblePasswordVars hold a password, which roceaudit does not take from a file.
var ansiblePasswordVars = []string{"ansible_password", "ansible_ssh_pass", "ansible_ssh_password"}

// roceaudit_ variables: the platform, and every connection key of the native inventory.
const roceauditVarPrefix = "roceaudit_"

func ansibleUsedVars() []string {
	used := append([]string{ansBecome, ansNetworkOS}, ansSSHArgVars...)
	used = append(append(append(append(used, ansHostVars...), ansUserVars...), ansPortVars...), ansKeyVars...)
	return used
}

// pickVar finds the first of names, the later one winning when several are set.
func pickVar(vars map[string]ansVar, names []string) (ansVar, bool) {
	var v ansVar
	found := false
	for _, n := range names {
		if x, ok := vars[n]; ok {
			v, found = x, true
		}
	}
	return v, found
}

// checkVars warns about ansible_ and roceaudit_ variables roceaudit does not know (a typo,
// or a variable it does not use), once per place in the file.
func (a *ansState) checkVars(vars map[string]ansVar) {
	used := ansibleUsedVars()
	roce := []string{ansPlatform, ansAddress}
	for _, k := range connKeys {
		roce = append(roce, roceauditVarPrefix+k)
	}
	for _, k := range sortedKeys(vars) {
		at := vars[k].key
		switch {
		case slices.Contains(ansiblePasswordVars, k):
			a.p.warnf(at, "%s is not read: roceaudit takes a password only from an environment variable (set %spassword_env: VAR, or use a key)", k, roceauditVarPrefix)
		case strings.HasPrefix(k, "ansible_"):
			if slices.Contains(used, k) || slices.Contains(ansibleOtherVars, k) || slices.ContainsFunc(ansibleOtherPrefixes, func(p string) bool { return strings.HasPrefix(k, p) }) ||
				strings.HasSuffix(k, "_interpreter") {
				continue
			}
			a.p.warnf(at, "unknown Ansible variable %s ignored%s", k, didYouMean(k, append(used, ansibleOtherVars...)))
		case strings.HasPrefix(k, roceauditVarPrefix) && !slices.Contains(roce, k):
			a.p.warnf(at, "unknown variable %s ignored (roceaudit reads %s)%s", k, strings.Join(roce, ", "), didYouMean(k, roce))
		}
	}
}

func didYouMean(k string, known []string) string {
	if s := closest(k, known); s != "" {
		return "; did you mean " + s + "?"
	}
	return ""
}

// roceauditConn reads roceaudit_user, roceaudit_port, ... as the native inventory reads
// user:, port:, ...; they win over the ansible_ variables.
func (a *ansState) roceauditConn(vars map[string]ansVar) connSettings {
	m := map[string]field{}
	for _, k := range connKeys {
		if v, ok := vars[roceauditVarPrefix+k]; ok {
			m[k] = v.field
		}
	}
	if len(m) == 0 {
		return connSettings{}
	}
	return a.p.conn(m)
}
