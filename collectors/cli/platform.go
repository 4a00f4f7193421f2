package cli

import "sort"

// scrapliPlatforms maps roceaudit platform names to scrapligo v1 platform definitions (the
// YAML files under assets/platforms in the scrapligo module).
var scrapliPlatforms = map[string]string{
	"eos":  "arista_eos",
	"nxos": "cisco_nxos",
}

// Supported reports whether platform's CLI is driven through an interactive session here.
// It is the natural "interactive" argument of NewMultiDialer.
func Supported(platform string) bool {
	_, ok := scrapliPlatforms[platform]
	return ok
}

// Platforms lists the supported roceaudit platform names, sorted.
func Platforms() []string {
	out := make([]string, 0, len(scrapliPlatforms))
	for p := range scrapliPlatforms {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// SetupInput is what the session itself types, outside any allowlist, for platform: the
// scrapligo driver's on-open sequence (an empty line to read the prompt, then paging and
// width settings, which last only for this session) and the "exit" sent on Close. If the
// login lands at the unprivileged ">" prompt the driver also types "enable" (no password is
// ever sent). Nothing here changes the device configuration.
func SetupInput(platform string) []string {
	switch platform {
	case "eos":
		return []string{"", "terminal width 32767", "terminal length 0", "exit"}
	case "nxos":
		return []string{"", "terminal width 511", "terminal length 0", "exit"}
	}
	return nil
}
