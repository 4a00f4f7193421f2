package collectors

import (
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	in := `username admin privilege 15 role network-admin secret sha512 $6$abc$def
username ops secret 5 $1$xyz
enable password 7 0822455D0A16
snmp-server community s3cret ro
tacacs-server key 7 070C285F4D06
radius-server host 10.0.0.5 key 7 1511021F0725
snmp-server user admin network-admin auth md5 0x1234abcd priv aes-128 0x5678ef localizedkey
   key 7 05080F1C2243
interface Ethernet1
   mtu 9214
   priority-flow-control priority 3 no-drop
{"TACPLUS_SERVER|10.0.0.9": {"passkey": "hunter2", "priority": "1"}, "SNMP_COMMUNITY|public": {"TYPE": "RO"}}
`
	out := Redact(in)
	for _, secret := range []string{"$6$abc$def", "$1$xyz", "0822455D0A16", "s3cret", "070C285F4D06", "1511021F0725", "0x1234abcd", "0x5678ef", "05080F1C2243", "hunter2", "|public"} {
		if strings.Contains(out, secret) {
			t.Errorf("%q survived:\n%s", secret, out)
		}
	}
	for _, kept := range []string{"mtu 9214", "priority-flow-control priority 3 no-drop", `"priority": "1"`, "interface Ethernet1", "username ops secret 5 <redacted>"} {
		if !strings.Contains(out, kept) {
			t.Errorf("%q was lost:\n%s", kept, out)
		}
	}
}
