package topology

import (
	"path"
	"strings"
)

// AppSetting is one assignment of an RDMA application knob in a host file, e.g.
// NCCL_IB_TC=106 in /etc/nccl.conf.
type AppSetting struct {
	Key   string `json:"key"`
	Value string `json:"value"`
	File  string `json:"file"`
}

// NCCLConf is NCCL's system-wide configuration file.
const NCCLConf = "/etc/nccl.conf"

// EffectiveSetting is the assignment of key that an application started from a login shell
// sees. NCCL reads /etc/nccl.conf without overwriting the environment, so any environment
// file wins over it; among environment files /etc/environment (pam_env) comes first and the
// /etc/profile.d scripts are sourced after it in lexical order, the last assignment winning.
func EffectiveSetting(settings []AppSetting, key string) (AppSetting, bool) {
	var best AppSetting
	found := false
	for _, s := range settings {
		if s.Key != key {
			continue
		}
		if !found || settingRank(s.File) >= settingRank(best.File) {
			best, found = s, true
		}
	}
	return best, found
}

// settingRank orders the files by precedence: nccl.conf < /etc/environment < profile.d.
func settingRank(file string) int {
	switch {
	case file == NCCLConf:
		return 0
	case path.Dir(file) == "/etc/profile.d" && strings.HasSuffix(file, ".sh"):
		return 2
	}
	return 1
}
