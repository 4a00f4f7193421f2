package collectors

import "regexp"

// Transcripts keep every command's output, and switch running-configs carry secrets (local
// user hashes, TACACS/RADIUS keys, SNMP communities). Those values are replaced before the
// transcript is stored; parsers still see the output as the device sent it.
var redactions = []struct {
	re   *regexp.Regexp
	repl string
}{
	// CLI configs (EOS, NX-OS, Cumulus): the value after the keyword (and an optional
	// encryption-type digit) is the secret.
	{regexp.MustCompile(`(?im)^(\s*(?:username\s+\S+[^\n]*?\s(?:secret|password)(?:\s+sha512)?|enable\s+(?:secret|password)|snmp-server\s+community|(?:tacacs|radius)-server\s+(?:host\s+\S+\s+)?key|key|password|secret|pre-shared-key|authentication-key|auth-key)\s+(?:\d\s+)?)\S+`), "${1}<redacted>"},
	// NX-OS `snmp-server user NAME ROLE auth md5 KEY priv aes-128 KEY`.
	{regexp.MustCompile(`(?i)(\b(?:auth\s+(?:md5|sha\S*)|priv(?:\s+aes-128)?)\s+)\S+`), "${1}<redacted>"},
	// SONiC CONFIG_DB JSON fields.
	{regexp.MustCompile(`(?i)("(?:passkey|password|passwd|secret|auth_key|shared_secret)"\s*:\s*)"[^"]*"`), `${1}"<redacted>"`},
	// SONiC SNMP communities are table keys.
	{regexp.MustCompile(`SNMP_COMMUNITY\|[^"\s]+`), "SNMP_COMMUNITY|<redacted>"},
}

// Redact hides secret values in command output kept for the record.
func Redact(s string) string {
	for _, r := range redactions {
		s = r.re.ReplaceAllString(s, r.repl)
	}
	return s
}
