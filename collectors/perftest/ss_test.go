package perftest

import "testing"

func TestParsePortInUse(t *testing.T) {
	tests := []struct {
		name, in string
		want     bool
	}{
		{"free (empty stdout)", readFixture(t, "local/ss_free.txt"), false},
		{"IPv4 listener", readFixture(t, "local/ss_listen_v4.txt"), true},
		{"IPv6 loopback listener", readFixture(t, "local/ss_listen_v6.txt"), true},
		{"dual-stack wildcard listener", readFixture(t, "local/ss_listen_any6.txt"), true},
		{"two listeners, padded columns", "LISTEN 0      1      127.0.0.1:18515 0.0.0.0:*\nLISTEN 0      1          [::1]:18515    [::]:*\n", true},
		{"blank lines only", "\n  \n", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParsePortInUse(tc.in)
			if err != nil || got != tc.want {
				t.Fatalf("ParsePortInUse = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
	for _, in := range []string{
		"State  Recv-Q Send-Q Local Address:Port Peer Address:Port\n", // an ss without -H
		"ss: invalid option -- 'H'\n",
		"Error: \"0x\" does not look like a port.\n",
		"ESTAB 0 0 10.0.0.1:18515 10.0.0.2:40000\n",
		"LISTEN 0 1 127.0.0.1:18515\n",
	} {
		if got, err := ParsePortInUse(in); err == nil {
			t.Errorf("ParsePortInUse(%q) = %v, want an error", in, got)
		}
	}
}
