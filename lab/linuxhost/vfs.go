package linuxhost

import (
	"path"
	"slices"
	"strings"
)

// vfile is one virtual file: its content, or the errno text reading it fails with (sysfs
// gid_attrs of an empty GID slot read EINVAL).
type vfile struct {
	data  string
	errno string
}

// vfs is a tiny read-only filesystem: files by absolute path, directories implied. It can be
// scoped to the paths one command reads (roots), so a command does not render all of sysfs.
// Directories index their entries, so a glob walks the pattern one element at a time instead
// of matching every path (a host has thousands: GID slots, counters, DCQCN files).
type vfs struct {
	files map[string]vfile
	dirs  map[string][]string // directory -> the names of its entries, files and directories
	slots map[string]slotDir  // directories of numbered files rendered on read (slots.go)
	roots []string            // static prefixes of the command's words; none means everything
	words []string            // the words themselves, roots[i] being words[i]'s
}

func newVFS() *vfs {
	return &vfs{files: map[string]vfile{}, dirs: map[string][]string{"/": nil}, slots: map[string]slotDir{}}
}

// scopedVFS is a vfs that only needs the files the given shell words can name.
func scopedVFS(words []string) *vfs {
	fs := newVFS()
	for _, w := range words {
		if i := strings.IndexAny(w, "*?["); i >= 0 {
			w = w[:i]
		}
		fs.roots = append(fs.roots, w)
	}
	fs.words = words
	return fs
}

// wants reports whether anything under prefix may be read: prefix and a word's static
// prefix are one the other's prefix, and (for absolute paths) each element of prefix the
// word has matches it. The elements narrow what the GID grep builds to the slot directories
// it names, not every file of every port.
func (fs *vfs) wants(prefix string) bool {
	if len(fs.roots) == 0 {
		return true
	}
	for i, r := range fs.roots {
		if (strings.HasPrefix(r, prefix) || strings.HasPrefix(prefix, r)) && reaches(fs.words[i], prefix) {
			return true
		}
	}
	return false
}

// reaches reports whether the word (a glob) can name p, a path under p, or a path under what
// it names: their elements match pairwise as far as both go. It errs towards true: a path it
// cannot decide (relative, escaped, a malformed pattern) is wanted.
func reaches(word, p string) bool {
	if !strings.HasPrefix(word, "/") || !strings.HasPrefix(p, "/") {
		return true
	}
	w, q := word[1:], p[1:]
	for w != "" && q != "" {
		var we, qe string
		we, w, _ = strings.Cut(w, "/")
		qe, q, _ = strings.Cut(q, "/")
		if !strings.ContainsAny(we, `*?[\`) {
			if we != qe {
				return false
			}
			continue
		}
		if strings.ContainsRune(we, '\\') {
			continue
		}
		if ok, err := path.Match(we, qe); !ok && err == nil {
			return false
		}
	}
	return true
}

func (fs *vfs) add(p, data string) { fs.put(p, vfile{data: data}) }

func (fs *vfs) addErr(p, errno string) { fs.put(p, vfile{errno: errno}) }

func (fs *vfs) put(p string, f vfile) {
	if !fs.wants(p) {
		return
	}
	if _, ok := fs.files[p]; !ok {
		fs.link(p)
	}
	fs.files[p] = f
}

// link enters p in its directory, creating the directories above it that do not exist yet.
func (fs *vfs) link(p string) {
	for p != "/" {
		d := path.Dir(p)
		_, known := fs.dirs[d]
		fs.dirs[d] = append(fs.dirs[d], path.Base(p))
		if known {
			return
		}
		p = d
	}
}

func (fs *vfs) exists(p string) bool {
	if _, ok := fs.files[p]; ok {
		return true
	}
	if _, ok := fs.dirs[p]; ok {
		return true
	}
	_, ok := fs.slot(p)
	return ok
}

// glob expands one shell word like bash does: matches sorted lexically, and the word itself
// when nothing matches (so the tool then reports it missing).
func (fs *vfs) glob(word string) []string {
	if !strings.ContainsAny(word, "*?[") {
		return []string{word}
	}
	out := fs.match(word)
	if len(out) == 0 {
		return []string{word}
	}
	if !slices.IsSorted(out) { // the walk's order already is, unless a name holds a byte below '/'
		slices.Sort(out)
	}
	return out
}

// match is every path pattern names, walked from the root one element at a time: an element
// with wildcards is matched against the entries of the directories reached so far, a literal
// one is looked up. As with path.Match over whole paths, a wildcard never matches '/', and
// an empty, "." or ".." element matches nothing.
func (fs *vfs) match(pattern string) []string {
	if !strings.HasPrefix(pattern, "/") {
		return nil
	}
	cur := []string{"/"}
	for _, el := range strings.Split(pattern[1:], "/") {
		if el == "" || el == "." || el == ".." {
			return nil
		}
		var next []string
		literal := !strings.ContainsAny(el, `*?[\`)
		for _, d := range cur {
			pre := d + "/"
			if d == "/" {
				pre = d
			}
			if literal {
				if fs.exists(pre + el) {
					next = append(next, pre+el)
				}
				continue
			}
			for _, name := range fs.dirs[d] {
				if el == "*" || matchName(el, name) {
					next = append(next, pre+name)
				}
			}
		}
		if cur = next; len(cur) == 0 {
			return nil
		}
	}
	return cur
}

// expand globs every word in order, as the shell does before running the command.
func (fs *vfs) expand(words []string) []string {
	var out []string
	for _, w := range words {
		out = append(out, fs.glob(w)...)
	}
	return out
}

// read returns a file's content or the error text a tool would print for it.
func (fs *vfs) read(p string) (string, string) {
	if f, ok := fs.files[p]; ok {
		if f.errno != "" {
			return "", f.errno
		}
		return f.data, ""
	}
	if _, ok := fs.dirs[p]; ok {
		return "", "Is a directory"
	}
	if f, ok := fs.slot(p); ok {
		if f.errno != "" {
			return "", f.errno
		}
		return f.data, ""
	}
	return "", "No such file or directory"
}

// grepAll is `grep PATTERN FILES...`: every line match selects, as PATH:LINE when named. A file that
// cannot be read makes the exit status 2, with grep's message unless silent (-s). Otherwise
// 0 when a line was printed, else 1.
func (fs *vfs) grepAll(words []string, named, silent bool, match func(string) bool) (string, string, int) {
	var b, errs strings.Builder
	failed, matched := false, false
	for _, p := range fs.expand(words) {
		data, errText := fs.read(p)
		if errText != "" {
			failed = true
			if !silent {
				errs.WriteString("grep: " + p + ": " + errText + "\n")
			}
			continue
		}
		for rest, more := strings.TrimSuffix(data, "\n"), true; more; {
			var line string
			line, rest, more = strings.Cut(rest, "\n")
			if !match(line) {
				continue
			}
			matched = true
			if named {
				b.WriteString(p)
				b.WriteByte(':')
			}
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
	switch {
	case failed:
		return b.String(), errs.String(), 2
	case matched:
		return b.String(), errs.String(), 0
	}
	return b.String(), errs.String(), 1
}

// cat is `cat FILES...`.
func (fs *vfs) cat(words []string) (string, string, int) {
	var out, errs strings.Builder
	exit := 0
	for _, p := range fs.expand(words) {
		data, errText := fs.read(p)
		if errText != "" {
			errs.WriteString("cat: " + p + ": " + errText + "\n")
			exit = 1
			continue
		}
		out.WriteString(data)
	}
	return out.String(), errs.String(), exit
}

// matchName is path.Match of one element (a malformed pattern matches nothing).
func matchName(el, name string) bool {
	ok, _ := path.Match(el, name)
	return ok
}
