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
type vfs struct {
	files map[string]vfile
	dirs  map[string]bool
	roots []string // static prefixes of the command's words; none means everything
}

func newVFS() *vfs { return &vfs{files: map[string]vfile{}, dirs: map[string]bool{"/": true}} }

// scopedVFS is a vfs that only needs the files the given shell words can name.
func scopedVFS(words []string) *vfs {
	fs := newVFS()
	for _, w := range words {
		if i := strings.IndexAny(w, "*?["); i >= 0 {
			w = w[:i]
		}
		fs.roots = append(fs.roots, w)
	}
	return fs
}

// wants reports whether anything under prefix may be read.
func (fs *vfs) wants(prefix string) bool {
	if len(fs.roots) == 0 {
		return true
	}
	for _, r := range fs.roots {
		if strings.HasPrefix(r, prefix) || strings.HasPrefix(prefix, r) {
			return true
		}
	}
	return false
}

func (fs *vfs) add(p, data string) { fs.put(p, vfile{data: data}) }

func (fs *vfs) addErr(p, errno string) { fs.put(p, vfile{errno: errno}) }

func (fs *vfs) put(p string, f vfile) {
	if !fs.wants(p) {
		return
	}
	fs.files[p] = f
	for d := path.Dir(p); !fs.dirs[d]; d = path.Dir(d) {
		fs.dirs[d] = true
	}
}

// glob expands one shell word like bash does: matches sorted lexically, and the word itself
// when nothing matches (so the tool then reports it missing).
func (fs *vfs) glob(word string) []string {
	if !strings.ContainsAny(word, "*?[") {
		return []string{word}
	}
	var out []string
	for p := range fs.files {
		if ok, _ := path.Match(word, p); ok {
			out = append(out, p)
		}
	}
	for d := range fs.dirs {
		if ok, _ := path.Match(word, d); ok {
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		return []string{word}
	}
	slices.Sort(out)
	return out
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
	if fs.dirs[p] {
		return "", "Is a directory"
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
		for _, line := range strings.Split(strings.TrimSuffix(data, "\n"), "\n") {
			if !match(line) {
				continue
			}
			matched = true
			if named {
				b.WriteString(p + ":")
			}
			b.WriteString(line + "\n")
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
