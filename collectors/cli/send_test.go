package cli

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	scrapliplatform "github.com/scrapli/scrapligo/platform"
)

// scrapligoReply is how a reply came back before send: scrapligo's processOut (no prompt
// strip), Response.Record's string, then Run's strip of the closing prompt and newline.
func scrapligoReply(b []byte, ret []byte, prompt *regexp.Regexp) string {
	lines := bytes.Split(b, []byte("\n"))
	clean := make([][]byte, len(lines))
	for i, l := range lines {
		clean[i] = bytes.TrimRight(l, " ")
	}
	b = bytes.Join(clean, []byte("\n"))
	b = bytes.Trim(b, string(ret))
	b = bytes.Trim(b, "\n")
	out := string(b)
	i := strings.LastIndexByte(out, '\n') + 1
	if prompt.MatchString(out[i:]) {
		out = out[:i]
	}
	out = strings.Trim(out, "\n")
	if out != "" {
		out += "\n"
	}
	return out
}

// A reply read by send is what scrapligo's SendCommand and the former Run made of it.
func FuzzReplyAsScrapligo(f *testing.F) {
	for _, s := range []string{"", "\n", " \n \n", "\nshow x  \n{\n  \"a\": 1  \n}\n\nleaf1# ", "a\nleaf1#\n  b \nleaf1(config)# ",
		"\n\n\nleaf1#", "x   ", "  \n\nleaf1# \n", "uplink-to-spine#\n   mtu 9214\n\nleaf1#"} {
		f.Add(s)
	}
	drivers := map[string]*regexp.Regexp{}
	var ret []byte
	for _, name := range []string{"cisco_nxos", "arista_eos"} {
		p, err := scrapliplatform.NewPlatform(name, "localhost")
		if err != nil {
			f.Fatal(err)
		}
		d, err := p.GetNetworkDriver()
		if err != nil {
			f.Fatal(err)
		}
		drivers[name], ret = d.Channel.PromptPattern, d.Channel.ReturnChar
	}
	f.Fuzz(func(t *testing.T, reply string) {
		for name, prompt := range drivers {
			want := scrapligoReply([]byte(reply), ret, prompt)
			if got := finish(trimLines([]byte(reply), ret), prompt); got != want {
				t.Fatalf("%s: %q came back as %q, scrapligo made it %q", name, reply, got, want)
			}
		}
	})
}

// searchTail is scrapligo's processReadBuf.
func TestSearchTail(t *testing.T) {
	for _, c := range []struct {
		in    string
		depth int
		want  string
	}{{"abc", 5, "abc"}, {"abcdef\nxy", 4, "\nxy"}, {"abcdef\nxy", 3, "\nxy"}, {"ab\ncdef", 4, "cdef"}, {"\nabc", 3, "abc"}} {
		if got := string(searchTail([]byte(c.in), c.depth)); got != c.want {
			t.Errorf("searchTail(%q, %d) = %q, want %q", c.in, c.depth, got, c.want)
		}
	}
}
