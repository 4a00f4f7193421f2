package linuxhost

import (
	"cmp"
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
// scoped to the paths one command reads (scopes), so a command does not render all of sysfs.
// Directories index their entries, so a glob walks the pattern one element at a time instead
// of matching every path (a host has thousands: GID slots, counters, DCQCN files).
type vfs struct {
	files  map[string]vfile
	dirs   map[string][]string // directory -> the names of its entries, files and directories
	slots  map[string]*slotDir // directories of numbered files rendered on read (slots.go)
	mixed  bool                // some slot directory also has other entries (slots.go)
	scopes []scope             // the command's words; none means everything
}

func newVFS() *vfs {
	return &vfs{files: map[string]vfile{}, dirs: map[string][]string{"/": nil}, slots: map[string]*slotDir{}}
}

// scopedVFS is a vfs that only needs the files the given shell words can name.
func scopedVFS(words []string) *vfs {
	fs := newVFS()
	for _, w := range words {
		sc := scope{root: w, abs: strings.HasPrefix(w, "/")}
		if i := strings.IndexAny(w, "*?["); i >= 0 {
			sc.root = w[:i]
		}
		if sc.abs {
			els := strings.Split(w[1:], "/")
			if els[len(els)-1] == "" {
				els = els[:len(els)-1] // a trailing slash names no element more
			}
			for _, e := range els {
				sc.els = append(sc.els, scopeEl{s: e, glob: hasMeta(e), escaped: strings.IndexByte(e, '\\') >= 0})
			}
		}
		fs.scopes = append(fs.scopes, sc)
	}
	return fs
}

// scope is one word of a command, split once for the many wants of building its vfs.
type scope struct {
	root string    // the static prefix, before the first wildcard
	abs  bool      // an absolute word, whose elements are
	els  []scopeEl // the word's elements
}

type scopeEl struct {
	s       string
	glob    bool // a wildcard or an escape: matched with path.Match
	escaped bool // holds an escape: taken to match anything
}

// hasMeta reports whether a path element has a wildcard or an escape (strings.ContainsAny
// was a tenth of building a vfs).
func hasMeta(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '*', '?', '[', '\\':
			return true
		}
	}
	return false
}

// wants reports whether anything under prefix may be read: prefix and a word's static
// prefix are one the other's prefix, and (for absolute paths) each element of prefix the
// word has matches it. The elements narrow what the GID grep builds to the slot directories
// it names, not every file of every port.
func (fs *vfs) wants(prefix string) bool {
	if len(fs.scopes) == 0 {
		return true
	}
	for i := range fs.scopes {
		sc := &fs.scopes[i]
		if (strings.HasPrefix(sc.root, prefix) || strings.HasPrefix(prefix, sc.root)) && sc.reaches(prefix) {
			return true
		}
	}
	return false
}

// reaches reports whether the word (a glob) can name p, a path under p, or a path under what
// it names: their elements match pairwise as far as both go. It errs towards true: a path it
// cannot decide (relative, escaped, a malformed pattern) is wanted.
func (sc *scope) reaches(p string) bool {
	if !sc.abs || !strings.HasPrefix(p, "/") {
		return true
	}
	q := p[1:]
	for _, e := range sc.els {
		if q == "" {
			return true
		}
		var qe string
		qe, q, _ = strings.Cut(q, "/")
		switch {
		case !e.glob:
			if e.s != qe {
				return false
			}
		case e.escaped, e.s == "*":
		default:
			if ok, err := path.Match(shellClasses(e.s), qe); !ok && err == nil {
				return false
			}
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
	clean := isClean(p)
	for p != "/" {
		var d, base string
		if clean { // path.Dir's Clean was a tenth of building a vfs; a clean path needs none
			i := strings.LastIndexByte(p, '/')
			d, base = p[:max(i, 1)], p[i+1:]
		} else {
			d, base = path.Dir(p), path.Base(p)
		}
		_, known := fs.dirs[d]
		fs.dirs[d] = append(fs.dirs[d], base)
		if _, ok := fs.slots[d]; ok {
			fs.mixed = true
		}
		if known {
			return
		}
		p = d
	}
}

// isClean reports whether p is an absolute path that path.Clean leaves as it is, and that is
// not the root: no empty, "." or ".." element and no trailing slash. Its parents are clean too.
func isClean(p string) bool {
	if len(p) < 2 || p[0] != '/' || p[len(p)-1] == '/' {
		return false
	}
	for el := range strings.SplitSeq(p[1:], "/") {
		if el == "" || el == "." || el == ".." {
			return false
		}
	}
	return true
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

// hit is one path a glob names, as its directory (with the trailing slash) and its name:
// the GID grep names 1,530 files of a dual-port host and prints a few dozen, so a path is
// joined only when printed. slot is set when the name is a slot of that slot directory, read
// without looking the path up.
type hit struct {
	dir, name string
	slot      *slotDir
	i         int // the slot, when slot is set
}

func (h hit) path() string { return h.dir + h.name }

// cmpHit orders hits as their paths, without joining them.
func cmpHit(a, b hit) int {
	if a.dir == b.dir {
		return strings.Compare(a.name, b.name)
	}
	la, lb := len(a.dir)+len(a.name), len(b.dir)+len(b.name)
	for i := 0; i < la && i < lb; i++ {
		if ca, cb := a.at(i), b.at(i); ca != cb {
			return cmp.Compare(ca, cb)
		}
	}
	return cmp.Compare(la, lb)
}

// at is byte i of the path.
func (h hit) at(i int) byte {
	if i < len(h.dir) {
		return h.dir[i]
	}
	return h.name[i-len(h.dir)]
}

// sortedHits is slices.IsSortedFunc(hs, cmpHit), knowing that the hits of one slot directory
// come in its entries' order, sorted where its sorted says so (comparing the GID grep's 1,530
// hits one by one was a tenth of it).
func sortedHits(hs []hit) bool {
	for i := 1; i < len(hs); i++ {
		if a, b := &hs[i-1], &hs[i]; a.slot == nil || a.slot != b.slot || !a.slot.sorted {
			if cmpHit(*a, *b) > 0 {
				return false
			}
		}
	}
	return true
}

// appendGlob appends to dst the hits of one shell word expanded as bash does: matches sorted
// lexically, and the word itself when nothing matches (so the tool then reports it missing).
func (fs *vfs) appendGlob(dst []hit, word string) []hit {
	if !strings.ContainsAny(word, "*?[") {
		return append(dst, hit{name: word})
	}
	n := len(dst)
	dst = fs.appendMatch(dst, word)
	out := dst[n:]
	if len(out) == 0 {
		return append(dst, hit{name: word})
	}
	if !sortedHits(out) {
		slices.SortFunc(out, cmpHit)
	}
	return dst
}

// appendMatch appends every path pattern names to hits, walked from the root one element at a time: an
// element with wildcards is matched against the entries of the directories reached so far, a
// literal one is looked up. As with path.Match over whole paths, a wildcard never matches
// '/', and an empty, "." or ".." element matches nothing.
func (fs *vfs) appendMatch(hits []hit, pattern string) []hit {
	if !strings.HasPrefix(pattern, "/") {
		return hits
	}
	els := strings.Split(pattern[1:], "/")
	cur := []string{"/"}
	for k, el := range els {
		if el == "" || el == "." || el == ".." {
			return hits
		}
		last := k == len(els)-1
		var next []string
		literal := !strings.ContainsAny(el, `*?[\`)
		if last && el == "*" {
			n := 0
			for _, d := range cur {
				n += len(fs.dirs[d])
			}
			hits = slices.Grow(hits, n)
		}
		for _, d := range cur {
			pre := d + "/"
			if d == "/" {
				pre = d
			}
			slot := fs.slotsOnly(d)
			if literal {
				switch {
				case !fs.exists(pre + el):
				case last:
					h := hit{dir: pre, name: el, slot: slot}
					if slot != nil {
						h.i, _ = slot.lookup(el)
					}
					hits = append(hits, h)
				default:
					next = append(next, pre+el)
				}
				continue
			}
			for pos, name := range fs.dirs[d] {
				switch {
				case el == "*" && strings.HasPrefix(name, "."), el != "*" && !matchName(el, name):
				case last && slot != nil:
					hits = append(hits, hit{dir: pre, name: name, slot: slot, i: slot.at(pos)})
				case last:
					hits = append(hits, hit{dir: pre, name: name})
				default:
					next = append(next, pre+name)
				}
			}
		}
		if cur = next; len(cur) == 0 && !last {
			return hits
		}
	}
	return hits
}

// slotsOnly is d's slot directory when every entry of d is a slot (no file was put among
// them), so that an existing name of d is read as a slot without a lookup; else nil.
func (fs *vfs) slotsOnly(d string) *slotDir {
	if fs.mixed {
		return nil
	}
	return fs.slots[d]
}

// expand globs every word in order, as the shell does before running the command, and
// gives fn each path; one word's hits at a time are held.
func (fs *vfs) expand(words []string, fn func(hit)) {
	var buf []hit
	for _, w := range words {
		buf = fs.appendGlob(buf[:0], w)
		for _, h := range buf {
			fn(h)
		}
	}
}

// readHit is read of the hit's path.
func (fs *vfs) readHit(h hit) (string, string) {
	if h.slot == nil {
		return fs.read(h.path())
	}
	f := h.slot.file(h.i)
	if f.errno != "" {
		return "", f.errno
	}
	return f.data, ""
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
	// The last line's verdict is kept: empty GID slots all read the same zero GID, and
	// matching it again and again was a sixth of the GID grep.
	var last string
	lastOK, seen := false, false
	fs.expand(words, func(h hit) {
		data, errText := fs.readHit(h)
		if errText != "" {
			failed = true
			if !silent {
				errs.WriteString("grep: " + h.path() + ": " + errText + "\n")
			}
			return
		}
		for rest, more := strings.TrimSuffix(data, "\n"), true; more; {
			var line string
			line, rest, more = strings.Cut(rest, "\n")
			if !seen || line != last {
				last, lastOK, seen = line, match(line), true
			}
			if !lastOK {
				continue
			}
			matched = true
			if named {
				b.WriteString(h.dir)
				b.WriteString(h.name)
				b.WriteByte(':')
			}
			b.WriteString(line)
			b.WriteByte('\n')
		}
	})
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
	fs.expand(words, func(h hit) {
		data, errText := fs.readHit(h)
		if errText != "" {
			errs.WriteString("cat: " + h.path() + ": " + errText + "\n")
			exit = 1
			return
		}
		out.WriteString(data)
	})
	return out.String(), errs.String(), exit
}

// matchName is the shell's match of one path element (a malformed pattern matches nothing):
// path.Match, except that a name beginning with a dot is matched only by a pattern that
// begins with one (bash without dotglob), and [!...] negates a class as [^...] does.
func matchName(el, name string) bool {
	if strings.HasPrefix(name, ".") && !strings.HasPrefix(el, ".") {
		return false
	}
	ok, _ := path.Match(shellClasses(el), name)
	return ok
}

// shellClasses spells the shell's negated classes, [!...], as path.Match's [^...].
func shellClasses(el string) string {
	if !strings.Contains(el, "[!") {
		return el
	}
	b := []byte(el)
	inClass := false
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == '\\':
			i++ // the escaped byte is literal, in a class or not
		case b[i] == '[' && !inClass:
			inClass = true
			if i+1 < len(b) && b[i+1] == '!' {
				b[i+1] = '^'
			}
		case b[i] == ']' && inClass:
			inClass = false
		}
	}
	return string(b)
}
