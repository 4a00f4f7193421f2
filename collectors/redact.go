package collectors

import (
	"strings"
)

// Transcripts keep every command's output, and switch configurations carry secrets (user
// hashes, enable secrets, TACACS+/RADIUS keys, SNMP communities and v3 keys, NTP and BGP
// keys). A list of spellings always misses some, so the rule is by meaning instead: on a
// line or in a JSON field that names a secret, every value after the name is replaced.
// Parsers still see the output as the device sent it; only the record is redacted. Hosts'
// outputs (sysfs, ip, ethtool) hold none and are kept as they are.

// Redacted replaces a secret value.
const Redacted = "<redacted>"

// Redact hides the secret values of one command's output.
func Redact(s string) string {
	// Most switch output (counters, interfaces, LLDP) names no secret at all: one scan of the
	// text spares the JSON walk, which cost more than parsing a 500 KB NX-OS queuing reply.
	// A JSON \u escape could spell a secret's name where the scan cannot see it, so escaped
	// text takes the full walk.
	if !mayHoldSecretText(s) && !strings.Contains(s, `\u`) {
		return s
	}
	if t := strings.TrimSpace(s); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
		if out, ok := redactJSON(s); ok {
			return out
		}
	}
	return redactLines(s)
}

// secretWords name a secret on a configuration line: the values after them are redacted.
var secretWords = map[string]bool{
	"password": true, "passwd": true, "secret": true, "key": true, "community": true,
	"passphrase": true, "auth": true, "priv": true, "hash": true, "pre-shared-key": true,
	"authentication-key": true, "auth-key": true, "shared-secret": true, "key-string": true,
}

// keptWords are qualifiers between a secret's name and its value (algorithms, encryption
// types, access levels): keeping them keeps the line readable and says nothing secret.
var keptWords = map[string]bool{
	"md5": true, "sha": true, "sha1": true, "sha-1": true, "sha224": true, "sha256": true, "sha-256": true,
	"sha384": true, "sha512": true, "aes": true, "aes128": true, "aes-128": true, "aes192": true,
	"aes-192": true, "aes256": true, "aes-256": true, "des": true, "3des": true, "auth": true, "priv": true,
	"localizedkey": true, "localized-key": true, "encrypted": true, "0": true, "5": true, "7": true,
	"8": true, "9": true, "ro": true, "rw": true, "view": true, "group": true,
}

func isSecretWord(w string) bool {
	w = strings.ToLower(w)
	if secretWords[w] {
		return true
	}
	for _, part := range []string{"password", "passwd", "secret", "passphrase", "community", "passkey"} {
		if strings.Contains(w, part) {
			return true
		}
	}
	return strings.HasSuffix(w, "-key") || strings.HasSuffix(w, "_key")
}

// redactLines redacts CLI configuration text line by line: from the first word that names a
// secret, every later word but the qualifiers is replaced.
func redactLines(s string) string {
	if !mayHoldSecret(s) {
		return s
	}
	lines := strings.SplitAfter(s, "\n")
	for i, line := range lines {
		if mayHoldSecret(line) {
			lines[i] = redactLine(line)
		}
	}
	return strings.Join(lines, "")
}

// secretStems are what mayHoldSecret looks for, in lower case (mayHoldSecretText spells
// them out by first letter: keep the two in step; TestMayHoldSecretTextAgrees compares).
var secretStems = []string{"pass", "secret", "key", "community", "auth", "priv", "hash", "snmp"}

// mayHoldSecretText is mayHoldSecret for a whole output: ASCII text is scanned in place,
// since lower-casing a copy of a 250 KB CONFIG_DB (and the GC work of that copy) cost more
// than the rest of its redaction. Other text takes mayHoldSecret's Unicode case folding.
func mayHoldSecretText(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return mayHoldSecret(s)
		}
		var hit bool
		switch rest := s[i:]; c | 0x20 {
		case 'p':
			hit = hasPrefixFoldASCII(rest, "pass") || hasPrefixFoldASCII(rest, "priv")
		case 's':
			hit = hasPrefixFoldASCII(rest, "secret") || hasPrefixFoldASCII(rest, "snmp")
		case 'k':
			hit = hasPrefixFoldASCII(rest, "key")
		case 'c':
			hit = hasPrefixFoldASCII(rest, "community")
		case 'a':
			hit = hasPrefixFoldASCII(rest, "auth")
		case 'h':
			hit = hasPrefixFoldASCII(rest, "hash")
		}
		if hit {
			return true
		}
	}
	return false
}

// hasPrefixFoldASCII reports whether s starts with the lower-case letters of w in any case.
func hasPrefixFoldASCII(s, w string) bool {
	if len(s) < len(w) {
		return false
	}
	for j := 0; j < len(w); j++ {
		if s[j]|0x20 != w[j] {
			return false
		}
	}
	return true
}

// mayHoldSecret is a cheap test that skips the word-by-word pass for most text.
func mayHoldSecret(s string) bool {
	l := strings.ToLower(s)
	for _, w := range secretStems {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

func redactLine(line string) string {
	body, eol := strings.CutSuffix(line, "\n")
	indent := body[:len(body)-len(strings.TrimLeft(body, " \t"))]
	words := strings.Fields(body)
	secret := false
	community := snmpHostCommunity(words)
	if community >= 0 {
		words[community] = Redacted
	}
	for i, w := range words {
		switch {
		case !secret && isSecretWord(w):
			secret = true
		case secret && (secretWords[strings.ToLower(w)] || keptWords[strings.ToLower(w)]):
			// A keyword after the first (auth md5 X priv aes Y): only exact keywords, since a
			// secret may well contain "password" itself.
		case secret:
			words[i] = Redacted
		}
	}
	if !secret && community < 0 {
		return line
	}
	out := indent + strings.Join(words, " ")
	if eol {
		out += "\n"
	}
	return out
}

// snmpHostCommunity is the index in words of the community of an `snmp-server host` line, or
// -1. EOS, NX-OS and IOS give it bare, with no word naming it: snmp-server host ADDR [vrf V |
// use-vrf V] [traps | informs] [version 1 | 2c | 3 [auth | noauth | priv]] COMMUNITY [udp-port
// N]. Version 3 names a user there, not a secret. An unknown keyword is taken for the
// community: hiding a word too many is the safe mistake.
func snmpHostCommunity(words []string) int {
	if len(words) < 4 || !strings.EqualFold(words[0], "snmp-server") || !strings.EqualFold(words[1], "host") {
		return -1
	}
	v3 := false
	for i := 3; i < len(words); i++ {
		switch strings.ToLower(words[i]) {
		case "traps", "informs", "trap", "inform":
		case "vrf", "use-vrf", "filter-vrf", "source-interface", "udp-port":
			i++ // and its argument
		case "version":
			if i+1 < len(words) {
				i++
				v3 = words[i] == "3"
			}
			if v3 && i+1 < len(words) {
				switch strings.ToLower(words[i+1]) {
				case "auth", "noauth", "priv":
					i++
				}
			}
		default:
			if v3 {
				return -1
			}
			return i
		}
	}
	return -1
}
