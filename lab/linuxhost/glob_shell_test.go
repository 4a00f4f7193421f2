package linuxhost

import (
	"context"
	"testing"
)

// Globs expand as bash's do (dotglob off): a name beginning with a dot is matched only by a
// pattern beginning with one, and [!...] is a negated class, like [^...].
func TestGlobsExpandAsTheShell(t *testing.T) {
	h := NewGPUHost("gpu01", 1)
	for _, n := range []string{".hidden.sh", "a.sh", "b.sh", "!.sh"} {
		h.Files["/etc/profile.d/"+n] = n + "\n"
	}
	for _, c := range []struct{ cmd, want string }{
		{"cat /etc/profile.d/*.sh", "!.sh\na.sh\nb.sh\n"},
		{"cat /etc/profile.d/*", "!.sh\na.sh\nb.sh\n"},
		{"cat /etc/profile.d/?.sh", "!.sh\na.sh\nb.sh\n"},
		{"cat /etc/profile.d/.*.sh", ".hidden.sh\n"},
		{"cat /etc/profile.d/[!a].sh", "!.sh\nb.sh\n"},
		{"cat /etc/profile.d/[^a].sh", "!.sh\nb.sh\n"},
		{"cat /etc/profile.d/[!!a].sh", "b.sh\n"},
	} {
		out, errOut, exit := h.Exec(context.Background(), c.cmd)
		if out != c.want || exit != 0 {
			t.Errorf("%s: %q (exit %d, %q), want %q", c.cmd, out, exit, errOut, c.want)
		}
	}
}
