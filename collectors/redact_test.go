package collectors

import (
	"encoding/json"
	"strings"
	"testing"
)

// cliSecrets are the ways EOS and NX-OS configurations spell secrets, each with a
// distinctive value; none may survive.
const cliSecrets = `username admin privilege 15 role network-admin secret sha512 $6$abc$defEOSUSER
username ops secret 5 $1$xyzOPS
username nx password 5 $5$nxHASH role network-admin
enable password sha512 $6$enableHASH
enable secret 0 plainENABLE
snmp-server community s3cretCOMM ro
snmp-server community s3cretCOMM2 group network-operator
tacacs-server key 7 070C285F4D06
tacacs-server host 10.0.0.7 key 7 TACHOSTKEY
radius-server host 10.0.0.5 key 7 1511021F0725
radius-server key 0 plainRADIUS
snmp-server user admin network-admin auth md5 0x1234abcd priv aes-128 0x5678ef localizedkey
snmp-server user ops network-operator auth sha AUTHSHA priv aes PRIVAES
snmp-server user v3u group1 v3 auth sha256 AUTH256 priv aes 256 PRIV256
ntp authentication-key 1 md5 NTPKEY 7
snmp-server host 10.1.1.1 traps version 2c hostCOMM1 udp-port 162
snmp-server host 10.1.1.2 vrf MGMT informs version 2c hostCOMM2
snmp-server host 10.1.1.3 hostCOMM3
snmp-server host 10.1.1.4 version 1 hostCOMM4
snmp-server host 10.1.1.5 traps version 3 priv v3user
snmp-server host 10.1.1.1 use-vrf management
key chain OSPF
  key 1
    key-string 7 KEYSTR7
    key-string KEYSTRPLAIN
ntp authenticate
   key 7 05080F1C2243
router bgp 65001
   neighbor 10.0.0.1 password 7 BGPPASS
   neighbor SPINES password 0 BGPPLAIN
   neighbor LEAVES password 7 MyPassword1isSecretCommunity
interface Ethernet1
   mtu 9214
   priority-flow-control priority 3 no-drop
   service-policy type qos input QOS_CLASSIFICATION
`

func TestRedactCLIConfig(t *testing.T) {
	out := Redact(cliSecrets)
	for _, secret := range []string{"EOSUSER", "xyzOPS", "nxHASH", "enableHASH", "plainENABLE", "s3cretCOMM", "070C285F4D06",
		"TACHOSTKEY", "1511021F0725", "plainRADIUS", "0x1234abcd", "0x5678ef", "AUTHSHA", "PRIVAES", "AUTH256", "PRIV256",
		"NTPKEY", "05080F1C2243", "BGPPASS", "BGPPLAIN", "MyPassword1isSecretCommunity", "hostCOMM", "KEYSTR"} {
		if strings.Contains(out, secret) {
			t.Errorf("%q survived:\n%s", secret, out)
		}
	}
	for _, kept := range []string{"   mtu 9214\n", "   priority-flow-control priority 3 no-drop\n", "interface Ethernet1\n",
		"username ops secret 5 <redacted>\n", "service-policy type qos input QOS_CLASSIFICATION", "ntp authenticate\n",
		"snmp-server user admin network-admin auth md5 <redacted> priv aes-128 <redacted> localizedkey",
		"snmp-server host 10.1.1.1 traps version 2c <redacted> udp-port 162\n", "snmp-server host 10.1.1.3 <redacted>\n",
		"snmp-server host 10.1.1.1 use-vrf management\n"} {
		if !strings.Contains(out, kept) {
			t.Errorf("%q was lost:\n%s", kept, out)
		}
	}
}

// SONiC's CONFIG_DB as `show runningconfiguration all` prints it (indented JSON): secret
// fields anywhere, SNMP communities as nested table keys and as flat keys.
func TestRedactConfigDB(t *testing.T) {
	in := `{
    "TACPLUS_SERVER": {
        "10.0.0.9": {
            "passkey": "hunter2TAC",
            "priority": "1"
        }
    },
    "TACPLUS": {"global": {"passkey": "globalTAC", "auth_type": "pap"}},
    "RADIUS_SERVER": {"10.0.0.5": {"passkey": "radiusPASS", "auth_port": "1812"}},
    "SNMP_COMMUNITY": {
        "publicCOMM": {"TYPE": "RO"},
        "privateCOMM": {"TYPE": "RW"}
    },
    "SNMP_COMMUNITY|flatCOMM": {"TYPE": "RO"},
    "SNMP_USER": {
        "v3user": {
            "SNMP_USER_AUTH_PASSWORD": "authPASS",
            "SNMP_USER_PRIV_PASSWORD": "privPASS",
            "SNMP_USER_AUTH_TYPE": "SHA",
            "SNMP_USER_TYPE": "Priv"
        }
    },
    "NTP_KEY": {"1": {"value": "ntpVALUE", "type": "md5"}},
    "BGP_NEIGHBOR": {"10.0.0.1": {"password": "bgpPASS", "asn": 65001}},
    "USER": {"admin": {"password_hash": "$6$hashADMIN", "role": "admin"}},
    "PORT": {"Ethernet0": {"mtu": "9100", "speed": "100000", "alias": "etp1"}},
    "PORT_QOS_MAP": {"Ethernet0": {"pfc_enable": "3,4", "dscp_to_tc_map": "AZURE"}},
    "bgpraw": "!\nrouter bgp 65001\n neighbor 10.0.0.1 remote-as 65002\n neighbor 10.0.0.1 password frrBGP\n!\n"
}
`
	out := Redact(in)
	var v map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("redacted CONFIG_DB is not JSON any more: %v\n%s", err, out)
	}
	for _, secret := range []string{"hunter2TAC", "globalTAC", "radiusPASS", "publicCOMM", "privateCOMM", "flatCOMM",
		"authPASS", "privPASS", "ntpVALUE", "bgpPASS", "hashADMIN", "frrBGP"} {
		if strings.Contains(out, secret) {
			t.Errorf("%q survived:\n%s", secret, out)
		}
	}
	for _, kept := range []string{`"priority": "1"`, `"mtu": "9100"`, `"pfc_enable": "3,4"`, `"dscp_to_tc_map": "AZURE"`,
		`"SNMP_USER_AUTH_TYPE": "SHA"`, `"asn": 65001`, "\n    \"PORT\": {", `neighbor 10.0.0.1 remote-as 65002\n`} {
		if !strings.Contains(out, kept) {
			t.Errorf("%q was lost:\n%s", kept, out)
		}
	}
}

// Output without anything secret-looking comes back as it went in (and cheaply).
func TestRedactLeavesOrdinaryOutput(t *testing.T) {
	for _, s := range []string{"", "{}\"\"", "Port Rx PFC0 PFC1\nEthernet0 0 0\n", `{"interfaces": {"Ethernet1": {"mtu": 9214}}}`, "not { json"} {
		if got := Redact(s); got != s {
			t.Errorf("Redact(%q) = %q", s, got)
		}
	}
}

func FuzzRedact(f *testing.F) {
	f.Add(cliSecrets)
	f.Add(`{"SNMP_COMMUNITY": {"x": {"TYPE": "RO"}}, "A": {"passkey": 1}}`)
	f.Fuzz(func(t *testing.T, s string) {
		out := Redact(s)
		if json.Valid([]byte(s)) && !json.Valid([]byte(out)) {
			t.Errorf("valid JSON became invalid:\n%s\n->\n%s", s, out)
		}
	})
}

// A secret's name spelled with JSON escapes is still a secret's name: the quick scan that
// lets ordinary output through cannot read escapes, so it must not wave them through.
func TestRedactEscapedSecretName(t *testing.T) {
	in := `{"TACPLUS": {"global": {"p\u0061ssword": "hunter2TAC"}}}`
	if out := Redact(in); strings.Contains(out, "hunter2TAC") {
		t.Errorf("secret behind an escaped name survived: %s", out)
	}
}

// The in-place scan of a whole output agrees with the lower-casing test it stands in for.
func TestMayHoldSecretTextAgrees(t *testing.T) {
	for _, s := range []string{"", "PASSWORD", "x Secret y", "snmp-server COMMUNITY", "tx_prio3_pause: 0",
		`{"mtu": 9100}`, "pas", "AUT", "\u212Aey 1", "caf\u00e9 key", "caf\u00e9", "HaSh", "kex", "priV"} {
		if got, want := mayHoldSecretText(s), mayHoldSecret(s); got != want {
			t.Errorf("mayHoldSecretText(%q) = %v, mayHoldSecret says %v", s, got, want)
		}
	}
}
