package loginshell

import (
	"slices"
	"testing"
)

func TestSplit(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		argv []string
		sudo bool
	}{
		{"  show   version ", []string{"show", "version"}, false},
		{"sudo -n show  pfc counters", []string{"show", "pfc", "counters"}, true},
		{" sudo -n nv show system", []string{"nv", "show", "system"}, true},
		{"sudo show version", []string{"sudo", "show", "version"}, false}, // only -n is the collectors' prefix
		{"", nil, false},
	} {
		argv, sudo := Split(c.cmd)
		if !slices.Equal(argv, c.argv) || sudo != c.sudo {
			t.Errorf("Split(%q) = %q, %v; want %q, %v", c.cmd, argv, sudo, c.argv, c.sudo)
		}
	}
}

func TestNotFound(t *testing.T) {
	if out, stderr, exit := NotFound("config", false); out != "" || stderr != "bash: line 1: config: command not found\n" || exit != 127 {
		t.Errorf("bash: %q %q %d", out, stderr, exit)
	}
	if out, stderr, exit := NotFound("config", true); out != "" || stderr != "sudo: config: command not found\n" || exit != 1 {
		t.Errorf("sudo: %q %q %d", out, stderr, exit)
	}
}
