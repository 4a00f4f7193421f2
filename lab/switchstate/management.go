package switchstate

// Management is the part of a real switch's configuration that has nothing to do with RoCE
// but is on every one of them: local users, AAA servers, SNMP, NTP and BGP, with their
// secrets. The emulators render it in their own syntax, so that an auditor that keeps raw
// configurations is tested against the secrets a real one holds.
type Management struct {
	UserHash, EnableHash, TacacsKey, RadiusKey string
	Community, SNMPAuth, SNMPPriv              string
	NTPKey, BGPPassword                        string
}

// ManagementOf is the switch's management configuration; every secret names the switch, so
// a leak says where it came from.
func (s *Switch) ManagementOf() Management {
	v := func(what string) string { return "lab" + what + "Of" + s.Name }
	return Management{
		UserHash: "$6$rounds=656000$" + v("UserHash"), EnableHash: "$6$" + v("EnableHash"),
		TacacsKey: v("TacacsKey"), RadiusKey: v("RadiusKey"),
		Community: v("Community"), SNMPAuth: v("SnmpAuthKey"), SNMPPriv: v("SnmpPrivKey"),
		NTPKey: v("NtpKey"), BGPPassword: v("BgpPassword"),
	}
}

// Secrets lists every secret value of m.
func (m Management) Secrets() []string {
	return []string{m.UserHash, m.EnableHash, m.TacacsKey, m.RadiusKey, m.Community, m.SNMPAuth, m.SNMPPriv, m.NTPKey, m.BGPPassword}
}
