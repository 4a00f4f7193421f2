package nosfmt

import "testing"

func TestTableLayouts(t *testing.T) {
	rows := [][]string{{"Ethernet0", "1,204"}, {"Ethernet4", ""}}
	for _, c := range []struct {
		name string
		t    Table
		want string
	}{
		{"sonic right", Table{Header: []string{"Port Rx", "PFC3"}, Rows: rows, HeaderPad: 2, Right: true},
			"  Port Rx    PFC3\n---------  ------\nEthernet0   1,204\nEthernet4\n"},
		{"sonic left", Table{Header: []string{"Port Rx", "PFC3"}, Rows: rows, HeaderPad: 2},
			"Port Rx    PFC3\n---------  ------\nEthernet0  1,204\nEthernet4\n"},
		{"nvue section", Table{Header: []string{"", "x"}, Rows: [][]string{{"a", "1"}}, Indent: "    "},
			"       x\n    -  -\n    a  1\n"},
	} {
		if got := c.t.String(); got != c.want {
			t.Errorf("%s:\n%q\nwant\n%q", c.name, got, c.want)
		}
	}
}
