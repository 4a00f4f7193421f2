package perftest_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/perftest"
)

func bwParams() perftest.Params {
	return perftest.Params{
		Test: perftest.TestWriteBW, Device: "mlx5_0", Port: 1, GIDIndex: 3, TrafficClass: 106,
		Duration: 10 * time.Second, TCPPort: 18515, Size: 65536, ServerIP: "192.168.1.12",
		TimeoutSlack: 15 * time.Second,
	}
}

func latParams() perftest.Params {
	p := bwParams()
	p.Test, p.Size, p.Device, p.Port, p.GIDIndex, p.TrafficClass, p.TCPPort = perftest.TestWriteLat, 64, "rocep59s0f0", 2, 0, 0, 20000
	p.Duration, p.TimeoutSlack = 5*time.Second, 1500*time.Millisecond
	return p
}

func TestCommandsExact(t *testing.T) {
	tests := []struct {
		name   string
		build  func(perftest.Params) (string, error)
		params perftest.Params
		want   string
	}{
		{"bw server", perftest.ServerCommand, bwParams(),
			"timeout 25 ib_write_bw -d mlx5_0 -i 1 -x 3 --tclass 106 -F --report_gbits -D 10 -p 18515 -s 65536"},
		{"bw client", perftest.ClientCommand, bwParams(),
			"timeout 25 ib_write_bw -d mlx5_0 -i 1 -x 3 --tclass 106 -F --report_gbits -D 10 -p 18515 -s 65536 192.168.1.12"},
		// Latency runs in iteration mode; the timeout rounds 6.5s up.
		{"lat server", perftest.ServerCommand, latParams(),
			"timeout 7 ib_write_lat -d rocep59s0f0 -i 2 -x 0 --tclass 0 -F -n 10000 -p 20000 -s 64"},
		{"lat client", perftest.ClientCommand, latParams(),
			"timeout 7 ib_write_lat -d rocep59s0f0 -i 2 -x 0 --tclass 0 -F -n 10000 -p 20000 -s 64 192.168.1.12"},
		{"server ignores ServerIP", perftest.ServerCommand, func() perftest.Params { p := bwParams(); p.ServerIP = "not an ip"; return p }(),
			"timeout 25 ib_write_bw -d mlx5_0 -i 1 -x 3 --tclass 106 -F --report_gbits -D 10 -p 18515 -s 65536"},
		{"defaults", perftest.ClientCommand, perftest.Params{Test: perftest.TestWriteBW, Device: "mlx5_1", GIDIndex: 5, TrafficClass: 104, ServerIP: "10.0.0.2"}.WithDefaults(),
			"timeout 25 ib_write_bw -d mlx5_1 -i 1 -x 5 --tclass 104 -F --report_gbits -D 10 -p 18515 -s 65536 10.0.0.2"},
		{"lat defaults", perftest.ServerCommand, perftest.Params{Test: perftest.TestWriteLat, Device: "mlx5_1", GIDIndex: 5, TrafficClass: 104}.WithDefaults(),
			"timeout 25 ib_write_lat -d mlx5_1 -i 1 -x 5 --tclass 104 -F -n 10000 -p 18515 -s 64"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.build(tc.params)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
			if strings.Contains(got, " -R") || strings.Contains(got, " -T") {
				t.Errorf("%q uses rdma_cm flags", got)
			}
		})
	}
}

func TestCommandValidation(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*perftest.Params)
		want   string
	}{
		{"unknown test", func(p *perftest.Params) { p.Test = "read_bw" }, `test "read_bw"`},
		{"empty device", func(p *perftest.Params) { p.Device = "" }, "RDMA device"},
		{"device with shell metacharacters", func(p *perftest.Params) { p.Device = "mlx5_0;reboot" }, "RDMA device"},
		{"device with a space", func(p *perftest.Params) { p.Device = "mlx5_0 -R" }, "RDMA device"},
		{"device with a colon", func(p *perftest.Params) { p.Device = "mlx5:0" }, "only letters, digits"},
		{"device path traversal", func(p *perftest.Params) { p.Device = "a..b" }, "RDMA device"},
		{"port 0", func(p *perftest.Params) { p.Port = 0 }, "RDMA port 0"},
		{"port 256", func(p *perftest.Params) { p.Port = 256 }, "RDMA port 256"},
		{"gid -1", func(p *perftest.Params) { p.GIDIndex = -1 }, "GID index -1"},
		{"gid 256", func(p *perftest.Params) { p.GIDIndex = 256 }, "GID index 256"},
		{"tclass -1", func(p *perftest.Params) { p.TrafficClass = -1 }, "traffic class -1"},
		{"tclass 256", func(p *perftest.Params) { p.TrafficClass = 256 }, "traffic class 256"},
		{"tcp port 1023", func(p *perftest.Params) { p.TCPPort = 1023 }, "TCP port 1023"},
		{"tcp port 65536", func(p *perftest.Params) { p.TCPPort = 65536 }, "TCP port 65536"},
		{"duration 0", func(p *perftest.Params) { p.Duration = 0 }, "duration 0s"},
		{"duration 301s", func(p *perftest.Params) { p.Duration = 301 * time.Second }, "duration 5m1s"},
		{"fractional duration", func(p *perftest.Params) { p.Duration = 1500 * time.Millisecond }, "whole number of seconds"},
		{"size 0", func(p *perftest.Params) { p.Size = 0 }, "message size 0"},
		{"size 1 MiB", func(p *perftest.Params) { p.Size = 1 << 20 }, "message size 1048576"},
		{"slack 0", func(p *perftest.Params) { p.TimeoutSlack = 0 }, "timeout slack 0s"},
		{"slack 11m", func(p *perftest.Params) { p.TimeoutSlack = 11 * time.Minute }, "timeout slack 11m0s"},
		{"several at once", func(p *perftest.Params) { p.Port, p.GIDIndex = 0, 300 }, "RDMA port 0 is outside 1..255; GID index 300"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := bwParams()
			tc.mutate(&p)
			for side, build := range map[string]func(perftest.Params) (string, error){"server": perftest.ServerCommand, "client": perftest.ClientCommand} {
				got, err := build(p)
				if !errors.Is(err, perftest.ErrInvalidParams) || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("%s: %q, %v; want ErrInvalidParams containing %q", side, got, err, tc.want)
				}
			}
		})
	}
	clientOnly := []struct{ ip, want string }{
		{"", "needs the server's IP"},
		{"gpu02", `"gpu02" is not an IP address`},
		{"192.168.1.12; reboot", "is not an IP address"},
		{"010.1.1.1", "is not an IP address"}, // leading zeros would be octal to inet_aton
		{"fd00::12", "is IPv6"},
		{"::ffff:192.168.1.12", "dotted form"},
	}
	for _, tc := range clientOnly {
		p := bwParams()
		p.ServerIP = tc.ip
		if got, err := perftest.ClientCommand(p); !errors.Is(err, perftest.ErrInvalidParams) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ServerIP %q: %q, %v; want an error containing %q", tc.ip, got, err, tc.want)
		}
		if _, err := perftest.ServerCommand(p); err != nil {
			t.Errorf("ServerIP %q must not matter to the server: %v", tc.ip, err)
		}
	}
}

// The published templates accept every command this package builds and nothing else.
func TestTemplatesMatchCommands(t *testing.T) {
	al := collectors.NewAllowlist(perftest.Templates()...)
	var cmds []string
	bwFL, latFL := bwParams(), latParams()
	bwFL.FlowLabel, latFL.FlowLabel = 7, perftest.MaxFlowLabel
	for _, p := range []perftest.Params{bwParams(), latParams(), bwFL, latFL} {
		for _, build := range []func(perftest.Params) (string, error){perftest.ServerCommand, perftest.ClientCommand} {
			c, err := build(p)
			if err != nil {
				t.Fatal(err)
			}
			cmds = append(cmds, c)
		}
	}
	if !strings.HasSuffix(cmds[5], " -s 65536 --flow_label 7 "+bwFL.ServerIP) {
		t.Errorf("flow label client %q", cmds[5])
	}
	for _, fl := range []int{-1, perftest.MaxFlowLabel + 1} {
		bad := bwParams()
		bad.FlowLabel = fl
		if _, err := perftest.ClientCommand(bad); !errors.Is(err, perftest.ErrInvalidParams) {
			t.Errorf("flow label %d: %v", fl, err)
		}
	}
	cmds = append(cmds, perftest.FreePortCommand(18515))
	if got := perftest.FreePortCommand(18515); got != "ss -Htln sport = :18515" {
		t.Errorf("FreePortCommand = %q", got)
	}

	// Each template is used by exactly one of the commands (none is spare).
	for _, tmpl := range perftest.Templates() {
		one := collectors.NewAllowlist(tmpl)
		n := 0
		for _, c := range cmds {
			if one.Allows(c) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("template %q matches %d of the built commands, want 1", tmpl, n)
		}
	}

	for _, c := range cmds {
		if !al.Allows(c) || !al.Allows(collectors.SudoPrefix+c) {
			t.Errorf("allowlist refuses %q", c)
		}
		refused := []string{
			c + " -R",
			c + " -T 106",
			c + "; reboot",
			c + " && rm -rf /",
			c + " | tee /tmp/x",
			c + " > /tmp/out",
			c + " $(id)",
			c + " `id`",
			c + "\nreboot",
			strings.Replace(c, " -F", " -R -F", 1),
			strings.Replace(c, " -F", " --out_json --out_json_file=/tmp/x -F", 1),
			strings.Replace(c, "timeout ", "timeout -k 1 ", 1),
			strings.Replace(c, " -p ", " -q 4 -p ", 1),
			"sudo " + c,
		}
		for _, r := range refused {
			if r != c && al.Allows(r) {
				t.Errorf("allowlist accepts the variant %q", r)
			}
		}
	}
	// Dropping the timeout, or one side's flags, is a different command and is refused too.
	for _, r := range []string{
		"ib_write_bw -d mlx5_0 -i 1 -x 3 --tclass 106 -F --report_gbits -D 10 -p 18515 -s 65536",
		"timeout 25 ib_write_bw -d mlx5_0 -i 1 -x 3 -F --report_gbits -D 10 -p 18515 -s 65536",
		"timeout 25 ib_write_bw -d mlx5_0;id -i 1 -x 3 --tclass 106 -F --report_gbits -D 10 -p 18515 -s 65536",
		"timeout 25 ib_write_bw -d mlx5_0 -i 1 -x 3 --tclass 106 -F --report_gbits -D 10 -p 18515 -s 65536 gpu02",
		"timeout 25 ib_write_bw -d mlx5_0 -i 1 -x 3 --tclass 106 -F --report_gbits -D 10 -p 18515 -s 65536 10.0.0.2 10.0.0.3",
		"timeout 25 ib_send_bw -d mlx5_0 -i 1 -x 3 --tclass 106 -F --report_gbits -D 10 -p 18515 -s 65536",
		"ss -Htlnp sport = :18515",
		"ss -Htln sport = :18515 or sport = :22",
	} {
		if al.Allows(r) {
			t.Errorf("allowlist accepts %q", r)
		}
	}
}
